/** Every value `provider:` takes in a `models:` entry of agents.yaml. */
export const PROVIDER_NAMES = [
  'openai',
  'azure',
  'ollama',
  'vllm',
  'lmstudio',
  'llamacpp',
  'deepseek',
  'mistral',
  'gemini',
  'openrouter',
  'groq',
  'together',
  'anthropic',
  'google',
  'vertex',
  'bedrock',
  'demo',
] as const;
/** A model provider: one of PROVIDER_NAMES. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The wire API a model is reached through: OpenAI's two, or a provider's native one. */
export type ProviderApi = 'chat_completions' | 'responses' | 'anthropic_messages' | 'gemini' | 'bedrock_converse';

/** How one provider's Chat Completions endpoint differs from OpenAI's; everything quirk-related lives here. */
export interface ProviderProfile {
  name: ProviderName;
  /** The API adk speaks to it by default. */
  api: ProviderApi;
  /** APIs `api:` may choose instead (OpenAI and Azure offer the Responses API too). */
  otherApis?: readonly ProviderApi[] | undefined;
  /** Whether the provider's API takes images in messages (for vision models). */
  images: boolean;
  /** How the model's reasoning reaches adk to be shown as thinking; `no` when it does not. */
  reasoningShown: string;
  /** Where the API lives when `base_url` is not given. */
  baseURL?: string | undefined;
  /** The environment variable read for the key when `api_key_env` is not given. */
  keyEnv?: string | undefined;
  /** Whether a request without a key is pointless (hosted services). */
  keyRequired: boolean;
  /** Azure classic deployments: `api-key` header and an `api-version` query parameter. */
  auth: 'bearer' | 'azure';
  /** OpenAI's reasoning models (o-series, gpt-5) reject `max_tokens`. */
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  /** Whether `stream_options: {include_usage: true}` is sent (Mistral, Groq reject it). */
  streamUsage: boolean;
  /** Strict chat templates: roles alternate, nothing but an assistant follows a tool result, no empty assistant turns. */
  strictRoles: boolean;
  /** Mistral accepts only tool-call ids of exactly nine letters and digits. */
  toolIdStyle: 'any' | 'alnum9';
  /** DeepSeek's thinking mode needs `reasoning_content` back on the assistant turns of the current tool loop. */
  echoReasoning: boolean;
  /** Gemini 3 and OpenRouter need their thought signatures (`extra_content`, `reasoning_details`) back. */
  echoSignatures: boolean;
  /** Local servers load the model and process the prompt before the first token: no idle limit until it comes. */
  patientFirstToken: boolean;
  /** Whether `response_format: {type: 'json_schema'}` constrains answers (DeepSeek and Groq's older models take only json_object). */
  jsonSchema: boolean;
}

const base: Omit<ProviderProfile, 'name'> = {
  api: 'chat_completions',
  images: true,
  reasoningShown: '`reasoning_content` / `reasoning`, `<think>` tags',
  keyRequired: true,
  auth: 'bearer',
  maxTokensParam: 'max_tokens',
  streamUsage: true,
  strictRoles: false,
  toolIdStyle: 'any',
  echoReasoning: false,
  echoSignatures: false,
  patientFirstToken: false,
  jsonSchema: true,
};

const local: Partial<ProviderProfile> = { keyRequired: false, patientFirstToken: true };
// Native APIs take roles as they are and send their own reasoning state back (see the models).
const native: Partial<ProviderProfile> = { strictRoles: false, streamUsage: false };
// Chat Completions never shows OpenAI's reasoning; the Responses API sends summaries of it.
const openaiApis: Partial<ProviderProfile> = { otherApis: ['responses'], reasoningShown: 'summaries with `api: responses`; none on Chat Completions' };

/** The profile of each provider (all but `demo`, which is not an endpoint): defaults, key variable and quirks. */
export const PROFILES: Record<Exclude<ProviderName, 'demo'>, ProviderProfile> = {
  openai: { ...base, ...openaiApis, name: 'openai', baseURL: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' },
  azure: { ...base, ...openaiApis, name: 'azure', keyEnv: 'AZURE_OPENAI_API_KEY', auth: 'azure', maxTokensParam: 'max_completion_tokens' },
  ollama: { ...base, ...local, name: 'ollama', baseURL: 'http://localhost:11434/v1', keyEnv: 'OLLAMA_API_KEY' },
  vllm: { ...base, ...local, name: 'vllm', baseURL: 'http://localhost:8000/v1', keyEnv: 'VLLM_API_KEY', strictRoles: true },
  lmstudio: { ...base, ...local, name: 'lmstudio', baseURL: 'http://localhost:1234/v1', keyEnv: 'LMSTUDIO_API_KEY', strictRoles: true },
  llamacpp: { ...base, ...local, name: 'llamacpp', baseURL: 'http://localhost:8080/v1', keyEnv: 'LLAMACPP_API_KEY', strictRoles: true },
  deepseek: { ...base, name: 'deepseek', baseURL: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', echoReasoning: true, jsonSchema: false, images: false, reasoningShown: '`reasoning_content`' },
  mistral: {
    ...base,
    name: 'mistral',
    baseURL: 'https://api.mistral.ai/v1',
    keyEnv: 'MISTRAL_API_KEY',
    streamUsage: false,
    strictRoles: true,
    toolIdStyle: 'alnum9',
    reasoningShown: 'Magistral `thinking` parts',
  },
  gemini: { ...base, name: 'gemini', baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai', keyEnv: 'GEMINI_API_KEY', echoSignatures: true, reasoningShown: '`reasoning_content` (thought summaries)' },
  openrouter: { ...base, name: 'openrouter', baseURL: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', echoSignatures: true, reasoningShown: '`reasoning` / `reasoning_details`' },
  groq: { ...base, name: 'groq', baseURL: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', streamUsage: false, jsonSchema: false },
  together: { ...base, name: 'together', baseURL: 'https://api.together.xyz/v1', keyEnv: 'TOGETHER_API_KEY' },
  anthropic: { ...base, name: 'anthropic', api: 'anthropic_messages', baseURL: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY', strictRoles: true, jsonSchema: false, reasoningShown: 'thinking blocks' },
  // Native Gemini (@google/genai): the Gemini API with a key, or Vertex AI with application-default credentials.
  google: { ...base, ...native, name: 'google', api: 'gemini', baseURL: 'https://generativelanguage.googleapis.com', keyEnv: 'GEMINI_API_KEY', reasoningShown: 'thought summaries' },
  vertex: { ...base, ...native, name: 'vertex', api: 'gemini', keyEnv: 'GOOGLE_API_KEY', keyRequired: false, reasoningShown: 'thought summaries' },
  // Bedrock signs requests with the AWS credential chain; a Bedrock API key is optional.
  bedrock: { ...base, ...native, name: 'bedrock', api: 'bedrock_converse', keyEnv: 'AWS_BEARER_TOKEN_BEDROCK', keyRequired: false, reasoningShown: 'reasoning content (Claude, DeepSeek-R1)' },
};

export function isProviderName(s: string): s is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(s);
}

const HOSTS: Array<[RegExp, Exclude<ProviderName, 'demo' | 'openai'>]> = [
  [/(^|\.)openai\.azure\.com$/, 'azure'],
  [/^api\.mistral\.ai$/, 'mistral'],
  [/^api\.groq\.com$/, 'groq'],
  [/^api\.deepseek\.com$/, 'deepseek'],
  [/^generativelanguage\.googleapis\.com$/, 'gemini'],
  [/^openrouter\.ai$/, 'openrouter'],
  [/^api\.together\.(xyz|ai)$/, 'together'],
];
const LOCAL_PORTS: Record<string, Exclude<ProviderName, 'demo' | 'openai'>> = { '11434': 'ollama', '1234': 'lmstudio' };

/**
 * The profile a plain OpenAI-compatible base URL (OPENAI_BASE_URL, or `base_url` without `provider:`)
 * most likely needs: hosted providers by host name, Ollama and LM Studio by their usual ports.
 */
export function profileForURL(baseURL: string | undefined): ProviderProfile {
  if (!baseURL) return PROFILES.openai;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return PROFILES.openai;
  }
  for (const [host, name] of HOSTS) if (host.test(url.hostname)) return PROFILES[name];
  const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname) ? LOCAL_PORTS[url.port] : undefined;
  return local ? PROFILES[local] : PROFILES.openai;
}

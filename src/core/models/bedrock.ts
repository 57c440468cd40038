import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { collectReply } from './collect-reply.js';
import { AdkError, CancelledError, ConfigError, ModelConnectionError, ModelHttpError } from '../errors.js';
import type { Message, MessageChunk } from '../schema/message.js';
import { importModule } from '../dynamic-import.js';
import { importOptional, notInstalled } from '../optional-peer.js';
import { withModelOptions, type ChatModel, type ModelCallOptions, type ModelOptions, type ModelTelemetry } from './chat-model.js';
import { modelVision } from './vision.js';
import { knownContextWindow } from './context-window.js';
import { BedrockStreamDecoder, toBedrockRequest, toBedrockToolConfig } from './bedrock-convert.js';
import { FetchHttpHandler } from './bedrock-fetch-handler.js';
import { CallGuard } from './openai-call.js';
import { conciseDetail, describeCause, redact } from './openai-errors.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './openai.js';
import { knownPrice, type ModelPrice } from './pricing.js';

const PKG = '@aws-sdk/client-bedrock-runtime';

/** Settings of BedrockChatModel. Credentials and region come from the standard AWS chain unless given. */
export interface BedrockChatModelOptions extends ModelOptions {
  /** A model id or inference profile (`anthropic.claude-…`, `us.meta.llama…`, an ARN). */
  model: string;
  /** Default: AWS_REGION / AWS_DEFAULT_REGION / the profile's region. */
  region?: string | undefined;
  /** A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK); without one, requests are signed with the AWS chain's credentials. */
  apiKey?: string | undefined;
  /** Explicit credentials (tests, assumed roles); default the AWS chain (environment, profile, SSO, IMDS, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined } | undefined;
  /** Another endpoint (a VPC endpoint, a proxy, a test server). */
  baseURL?: string | undefined;
  configName?: string | undefined;
  contextWindow?: number | undefined;
  /** Whether the model takes images and PDFs (`vision:` in agents.yaml); default: known text-only names say false, else unknown. */
  vision?: boolean | undefined;
  price?: ModelPrice | undefined;
  timeoutMs?: number | undefined;
  idleTimeoutMs?: number | undefined;
}

/** Bedrock's exceptions as the HTTP statuses adk's retry rules know (throttling retried like a 429). */
const EXCEPTION_STATUS: Record<string, number> = {
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  ServiceUnavailableException: 503,
  ModelNotReadyException: 503,
  InternalServerException: 500,
  ModelStreamErrorException: 502,
  ModelErrorException: 502,
  ModelTimeoutException: 408,
  ValidationException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  ExpiredTokenException: 403,
  ResourceNotFoundException: 404,
  ConflictException: 409,
};

/**
 * A model on Amazon Bedrock through the Converse API (`@aws-sdk/client-bedrock-runtime`, an optional
 * peer loaded with the first request): streaming, tool use, reasoning content (kept with signatures
 * for tool loops), usage with cache tokens. The SDK's own retries are off; throttling surfaces as a
 * 429, which the agent retries with backoff like any other.
 */
export class BedrockChatModel implements ChatModel {
  readonly modelName: string;
  readonly baseURL: string;
  readonly contextWindow?: number | undefined;
  readonly vision?: boolean | undefined;
  readonly price?: ModelPrice | undefined;
  readonly telemetry: ModelTelemetry;
  private client?: Promise<{ client: BedrockRuntimeClient; sdk: typeof import('@aws-sdk/client-bedrock-runtime') }> | undefined;
  private readonly handler = new FetchHttpHandler();
  private readonly timeoutMs: number;

  constructor(private readonly options: BedrockChatModelOptions) {
    this.modelName = options.model;
    const bare = options.model.replace(/^(arn:.*\/)?((us|eu|apac|global)\.)?[a-z0-9-]+\./, '');
    this.contextWindow = options.contextWindow ?? knownContextWindow(bare);
    this.vision = modelVision(bare, options.vision);
    this.price = options.price ?? knownPrice(bare);
    this.baseURL = (options.baseURL ?? (options.region ? `https://bedrock-runtime.${options.region}.amazonaws.com` : '')).replace(/\/+$/, '');
    this.timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    this.telemetry = telemetryOf(this.baseURL, options);
  }

  private connect() {
    const o = this.options;
    return (this.client ??= importOptional(() => importModule<typeof import('@aws-sdk/client-bedrock-runtime')>(PKG), PKG, () => new ConfigError(`provider: bedrock needs ${notInstalled(PKG)}`)).then((sdk) => ({
      sdk,
      client: new sdk.BedrockRuntimeClient({
        ...(o.region ? { region: o.region } : {}),
        ...(o.baseURL ? { endpoint: this.baseURL } : {}),
        ...(o.credentials ? { credentials: o.credentials } : {}),
        ...(o.apiKey ? { token: { token: o.apiKey }, authSchemePreference: ['httpBearerAuth'] } : {}),
        maxAttempts: 1,
        requestHandler: this.handler as never,
      }),
    })));
  }

  private input(messages: Message[], options: ModelCallOptions): Record<string, unknown> {
    const o = withModelOptions(this.options, options);
    const { system, messages: msgs } = toBedrockRequest(messages);
    const input: Record<string, unknown> = { modelId: this.modelName, messages: msgs };
    if (system.length) input.system = system;
    if (options.tools?.length) input.toolConfig = toBedrockToolConfig(options.tools, options.toolChoice);
    const inference: Record<string, unknown> = {};
    if (o.maxTokens !== undefined) inference.maxTokens = o.maxTokens;
    if (o.temperature !== undefined) inference.temperature = o.temperature;
    if (o.topP !== undefined) inference.topP = o.topP;
    if (o.stop !== undefined) inference.stopSequences = Array.isArray(o.stop) ? o.stop : [o.stop];
    if (Object.keys(inference).length) input.inferenceConfig = inference;
    // Model-specific fields (Claude's `thinking`, Llama's `top_k`) go where Converse takes them.
    if (o.extraBody) input.additionalModelRequestFields = o.extraBody;
    return input;
  }

  generate(messages: Message[], options: ModelCallOptions = {}): Promise<Message> {
    return collectReply(this.stream(messages, options));
  }

  async *stream(messages: Message[], options: ModelCallOptions = {}): AsyncIterable<MessageChunk> {
    const guard = new CallGuard(options.signal, this.timeoutMs, this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    const decoder = new BedrockStreamDecoder();
    let complete = false;
    try {
      try {
        const { sdk, client } = await this.connect();
        const res = await client.send(new sdk.ConverseStreamCommand(this.input(messages, options) as never), { abortSignal: this.handler.track(guard) });
        const requestId = res.$metadata?.requestId;
        if (requestId) options.onResponseInfo?.({ id: requestId, model: this.modelName });
        for await (const ev of res.stream ?? []) {
          const chunk = decoder.decode(ev as unknown as Record<string, unknown>);
          if (!chunk) continue;
          guard.pause();
          yield chunk;
          guard.resume();
        }
      } catch (e) {
        throw guard.stopError() ?? this.toError(e, guard.errorBody);
      }
      const stopped = guard.stopError();
      if (stopped) throw stopped;
      if (!decoder.finished) throw new ModelConnectionError('the Bedrock stream ended before messageStop: the connection was cut', true);
      yield decoder.finish();
      complete = true;
    } finally {
      if (!complete) guard.abort();
      guard.dispose();
    }
  }

  private toError(e: unknown, errorBody: string | undefined): Error {
    const r = (s: string) => redact(s, this.options.apiKey);
    if (e instanceof AdkError) return e;
    const err = e as { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: unknown }; $retryable?: unknown };
    const name = typeof err?.name === 'string' ? err.name : '';
    const message = typeof err?.message === 'string' && err.message !== 'UnknownError' ? err.message : (errorBody ?? name);
    if (name === 'AbortError') return new CancelledError('model request cancelled');
    const status = EXCEPTION_STATUS[name] ?? (typeof err.$metadata?.httpStatusCode === 'number' && err.$metadata.httpStatusCode >= 400 ? err.$metadata.httpStatusCode : undefined);
    if (status) return new ModelHttpError(status, r(conciseDetail(`${name ? `${name}: ` : ''}${message}`)), undefined, { providerCode: name || undefined });
    if (/region is missing/i.test(message)) return new ConfigError(`provider: bedrock needs a region: set \`region:\` on the models entry, or AWS_REGION`);
    if (name === 'CredentialsProviderError' || /could not load credentials/i.test(message)) {
      return new ConfigError(r(`provider: bedrock found no AWS credentials (${message}): configure the AWS chain (AWS_PROFILE, AWS_ACCESS_KEY_ID…, SSO) or set AWS_BEARER_TOKEN_BEDROCK`));
    }
    if (e instanceof TypeError) return new ModelConnectionError(r(`cannot reach Bedrock at ${this.baseURL || 'its regional endpoint'}: ${describeCause(e)}`), true);
    return new ModelConnectionError(r(`Bedrock request failed: ${message}`), false);
  }
}

function telemetryOf(baseURL: string, o: BedrockChatModelOptions): ModelTelemetry {
  const t: ModelTelemetry = { provider: 'aws.bedrock' };
  try {
    const u = new URL(baseURL);
    t.serverAddress = u.hostname;
    t.serverPort = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  } catch {
    // The endpoint comes from the region at the first request.
  }
  for (const k of ['temperature', 'topP', 'maxTokens', 'stop'] as const) if (o[k] !== undefined) Object.assign(t, { [k]: o[k] });
  return t;
}

#!/usr/bin/env node
// The README's provider table, generated from the provider profiles (src/core/models/providers.ts).
// `node scripts/provider-table.mjs` prints it from the build (dist/); test/providers/provider-table.test.ts
// checks that the README holds exactly this table between its markers.

export const START = '<!-- provider-table:start -->';
export const END = '<!-- provider-table:end -->';

const API_NAMES = {
  chat_completions: 'Chat Completions',
  responses: 'Responses',
  anthropic_messages: 'Anthropic Messages',
  gemini: 'Gemini (`@google/genai`)',
  bedrock_converse: 'Bedrock Converse (`@aws-sdk/client-bedrock-runtime`)',
};

const KEYLESS = { vertex: 'application-default credentials', bedrock: 'AWS credential chain' };

/** The table's markdown, one row per profile, in the profiles' order. */
export function providerTable(profiles) {
  const rows = Object.values(profiles).map((p) => {
    const apis = [p.api, ...(p.otherApis ?? [])].map((a) => API_NAMES[a] ?? a);
    const api = apis.length > 1 ? `${apis[0]} (default), ${apis.slice(1).map((a) => `\`api: ${a.toLowerCase()}\``).join(', ')}` : apis[0];
    const key = p.keyEnv ? `\`${p.keyEnv}\`${p.keyRequired ? '' : ' (optional)'}` : '-';
    const keyCell = KEYLESS[p.name] ? `${KEYLESS[p.name]}; ${key}` : key;
    return `| \`${p.name}\` | ${api} | ${keyCell} | ${p.images ? 'yes' : 'no'} | ${p.reasoningShown} |`;
  });
  return [START, '| profile | API | key variable | images | reasoning shown |', '|---|---|---|---|---|', ...rows, END].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { PROFILES } = await import('../dist/core/models/providers.js');
  process.stdout.write(`${providerTable(PROFILES)}\n`);
}

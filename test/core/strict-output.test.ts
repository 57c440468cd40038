import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ChatModelAgent, ConfigError, OpenAIChatModel, PROFILES, Runner } from '../../src/core/index.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

// Issue 29 item a: an agent's output schema goes to OpenAI and Azure in strict mode
// (`json_schema.strict: true`), made strict-compatible the way OpenAI documents it
// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): every property
// required, optional ones nullable, `additionalProperties: false` on every object, keywords strict
// mode does not take moved into the description; a schema that cannot be strict is a ConfigError
// naming what and where. Over the real openai client against the local OpenAI-compatible server.

/** Every object node of a JSON schema, with its path. */
function objects(s: any, path = '#'): Array<[string, any]> {
  if (!s || typeof s !== 'object') return [];
  const here: Array<[string, any]> = s.type === 'object' || s.properties ? [[path, s]] : [];
  const kids: Array<[string, any]> = [
    ...Object.entries(s.properties ?? {}).map(([k, v]) => [`${path}/properties/${k}`, v] as [string, any]),
    ...(s.items && typeof s.items === 'object' ? [[`${path}/items`, s.items] as [string, any]] : []),
    ...(s.anyOf ?? []).map((v: any, i: number) => [`${path}/anyOf/${i}`, v] as [string, any]),
    ...Object.entries(s.$defs ?? {}).map(([k, v]) => [`${path}/$defs/${k}`, v] as [string, any]),
  ];
  return [...here, ...kids.flatMap(([p, v]) => objects(v, p))];
}

/** Keywords anywhere in the schema (keys of schema nodes, not of `properties`). */
function keywords(s: any, out = new Set<string>()): Set<string> {
  if (!s || typeof s !== 'object') return out;
  if (Array.isArray(s)) {
    for (const x of s) keywords(x, out);
    return out;
  }
  for (const [k, v] of Object.entries(s)) {
    out.add(k);
    if (k === 'properties' || k === '$defs') for (const x of Object.values(v as object)) keywords(x, out);
    else if (k !== 'enum' && k !== 'const' && k !== 'required') keywords(v, out);
  }
  return out;
}

const nullable = (s: any) => s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || (s.anyOf ?? []).some(nullable);

const Report = z.object({
  city: z.string().min(2).describe('The city'),
  celsius: z.number().int(),
  note: z.string().optional(),
  unit: z.enum(['c', 'f']).default('c'),
  readings: z.array(z.object({ at: z.iso.datetime(), value: z.number(), source: z.string().optional() })).max(5),
});

describe('strict structured output on OpenAI and Azure (issue 29 item a)', () => {
  let server!: OpenAITestServer;
  useOpenAIServer((s) => (server = s));
  const model = (provider: 'openai' | 'azure' | 'ollama', extra: object = {}) =>
    new OpenAIChatModel({ model: 'gpt-test', apiKey: 'k', baseURL: provider === 'azure' ? `${server.url.replace(/\/v1$/, '')}/openai/deployments/d` : server.url, profile: PROFILES[provider], ...extra });
  const agent = (m: OpenAIChatModel, outputSchema: any = Report) => new ChatModelAgent({ name: 'w', description: 'weather', model: m, outputSchema, outputSchemaName: 'report', outputRetries: 0 });

  it.each(['openai', 'azure'] as const)('%s: the request carries strict: true and a strict-compatible schema; nulls for optional fields read as absent', async (provider) => {
    server.enqueue({ content: JSON.stringify({ city: 'Oslo', celsius: 4, note: null, unit: 'c', readings: [{ at: '2024-05-06T07:08:09Z', value: 3.5, source: null }] }) });
    const r = await new Runner({ agent: agent(model(provider)) }).query('Oslo?').result;
    expect(r.error?.message).toBeUndefined();
    expect(r.structured).toEqual({ city: 'Oslo', celsius: 4, unit: 'c', readings: [{ at: '2024-05-06T07:08:09Z', value: 3.5 }] });

    const format = server.chatRequests[0]!.body.response_format;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'report', strict: true } });
    const schema = format.json_schema.schema;
    // OpenAI's rules: an object root; on every object, additionalProperties false and every property required.
    expect(schema.type).toBe('object');
    for (const [path, o] of objects(schema)) {
      expect(o.additionalProperties, path).toBe(false);
      expect([...(o.required ?? [])].sort(), path).toEqual(Object.keys(o.properties ?? {}).sort());
    }
    // Optional properties (note, unit with its default, readings[].source) take null instead.
    expect(nullable(schema.properties.note)).toBe(true);
    expect(nullable(schema.properties.unit)).toBe(true);
    expect(nullable(schema.properties.readings.items.properties.source)).toBe(true);
    expect(nullable(schema.properties.city)).toBe(false);
    // No keyword strict mode refuses; what was dropped is told to the model in the description.
    const unsupported = ['minLength', 'maxLength', 'default', 'propertyNames', 'patternProperties', 'unevaluatedProperties', 'minProperties', 'maxProperties', 'uniqueItems', 'contains', 'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'prefixItems', '$schema', 'oneOf'];
    expect([...keywords(schema)].filter((k) => unsupported.includes(k))).toEqual([]);
    expect(schema.properties.city.description).toBe('The city (minLength: 2)');
    // Kept: what strict mode supports (format date-time, pattern, minimum/maximum, maxItems, enum).
    expect(schema.properties.readings.maxItems).toBe(5);
    expect(schema.properties.readings.items.properties.at.format).toBe('date-time');
  });

  it('a schema both accept is sent exactly as the openai SDK’s zodResponseFormat makes it', async () => {
    const Simple = z.object({ city: z.string().describe('The city'), celsius: z.number().int(), note: z.string().nullable(), tags: z.array(z.object({ name: z.string() })), unit: z.enum(['c', 'f']) });
    server.enqueue({ content: '{"city":"Oslo","celsius":4,"note":null,"tags":[],"unit":"c"}' });
    const r = await new Runner({ agent: agent(model('openai'), Simple) }).query('Oslo?').result;
    expect(r.status).toBe('completed');
    const sent = server.chatRequests[0]!.body.response_format.json_schema;
    const { $schema: _, ...sdk } = zodResponseFormat(Simple, 'report').json_schema.schema as Record<string, unknown>;
    expect(sent).toMatchObject({ name: 'report', strict: true });
    expect(sent.schema).toEqual(sdk);
  });

  it('a schema strict mode cannot express is a ConfigError naming what and where, before any request', async () => {
    const Open = z.object({ scores: z.record(z.string(), z.number()), pair: z.tuple([z.string(), z.number()]) });
    const r = await new Runner({ agent: agent(model('openai'), Open) }).query('scores?').result;
    expect(r.status).toBe('error');
    expect(r.error).toBeInstanceOf(ConfigError);
    expect(r.error!.message).toMatch(/output schema "report" cannot be sent in OpenAI's strict mode/);
    expect(r.error!.message).toMatch(/#\/properties\/scores: .*additionalProperties/);
    expect(r.error!.message).toMatch(/#\/properties\/pair: .*prefixItems/);
    expect(r.error!.message).toMatch(/strictOutput: false/);
    expect(server.chatRequests).toHaveLength(0);
  });

  it('strictOutput: false sends the schema as it is, without strict; other providers are not sent strict', async () => {
    const Open = z.object({ scores: z.record(z.string(), z.number()) });
    server.enqueue({ content: '{"scores":{"a":1}}' }, { content: '{"scores":{"a":1}}' });
    const loose = await new Runner({ agent: agent(model('openai', { strictOutput: false }), Open) }).query('scores?').result;
    expect(loose.structured).toEqual({ scores: { a: 1 } });
    const ollama = await new Runner({ agent: agent(model('ollama'), Open) }).query('scores?').result;
    expect(ollama.structured).toEqual({ scores: { a: 1 } });
    for (const q of server.chatRequests) {
      expect(q.body.response_format.json_schema.strict).toBeUndefined();
      expect(q.body.response_format.json_schema.schema.properties.scores.additionalProperties).toEqual({ type: 'number' });
    }
  });
});

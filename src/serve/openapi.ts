import * as z from 'zod';
import { CreateSessionBody, ErrorBody, InterruptsBody, MessageBody } from './schemas.js';
import { EVENT_SCHEMAS } from './event-schemas.js';
import { RESPONSE_SCHEMAS } from './response-schemas.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: z.ZodType) => ({ 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } });
const jsonRef = (name: string) => ({ 'application/json': { schema: ref(name) } });
// OpenAPI 3.1 has no type for a stream of events: each SSE `data:` is one SessionEvent.
const sse = { 'text/event-stream': { schema: { ...ref('SessionEvent'), description: 'Server-sent events: `event: <type>`, `id: <seq>`, `data: <SessionEvent JSON>`, as `adk run --json` prints them' } } };
const failure = (description: string) => ({ description, content: jsonRef('Error') });
const errors = {
  '400': failure('Invalid body (the field path is named)'),
  '401': failure('The token is missing or wrong'),
  '404': failure('No such session'),
  '503': failure('The server is stopping, or its store is unreachable: send it again later'),
};
const posted = { '413': failure('The body is too large'), '415': failure('The body is not JSON') };
const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Session id (a unique prefix works)' }];

/** The response and event schemas as OpenAPI components, made from the zod schemas the server types its answers with. */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries({ ...RESPONSE_SCHEMAS, ...EVENT_SCHEMAS, Error: ErrorBody })) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, { uri: (name) => `#/components/schemas/${name}`, io: 'input', unrepresentable: 'any' });
  // Each is a component, not a document of its own.
  return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _s, $id: _i, ...schema }]) => [name, schema]));
}

/** The OpenAPI 3.1 document served at `/openapi.json`; `server`: the address it was asked at. */
export function openApiDocument(version: string, server = 'http://127.0.0.1:8321'): unknown {
  return {
    openapi: '3.1.0',
    info: {
      title: 'adk serve',
      version,
      description: 'Agent teams over HTTP: sessions, turns streamed as server-sent events, interrupts answered by people.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: server, description: 'This server' }],
    tags: [
      { name: 'agents', description: 'The teams this server runs' },
      { name: 'sessions', description: 'Conversations with a team, their turns and interrupts' },
    ],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'ADK_SERVE_TOKEN (required when the server listens beyond loopback)' } },
      schemas: componentSchemas(),
    },
    security: [{ bearer: [] }, {}],
    paths: {
      '/v1/agents': { get: { operationId: 'listAgents', tags: ['agents'], summary: 'The teams (root agents) and their trees', responses: { '200': { description: 'The agents', content: jsonRef('Agents') }, '401': errors['401'] } } },
      '/v1/sessions': {
        get: { operationId: 'listSessions', tags: ['sessions'], summary: 'Saved sessions, newest first', responses: { '200': { description: 'Sessions', content: jsonRef('SessionList') }, '401': errors['401'], '503': errors['503'] } },
        post: {
          operationId: 'createSession',
          tags: ['sessions'],
          summary: 'Start a session',
          requestBody: { required: false, content: json(CreateSessionBody) },
          responses: { '201': { description: 'The new session', content: jsonRef('SessionCreated') }, ...errors, ...posted },
        },
      },
      '/v1/sessions/{id}': {
        parameters: id,
        get: { operationId: 'getSession', tags: ['sessions'], summary: 'History, status and pending interrupts', responses: { '200': { description: 'The session', content: jsonRef('Session') }, ...errors } },
        delete: { operationId: 'deleteSession', tags: ['sessions'], summary: 'Delete a session (stops its turn)', responses: { '204': { description: 'Deleted' }, '409': failure('A CLI turn holds it'), ...errors } },
      },
      '/v1/sessions/{id}/messages': {
        parameters: id,
        post: {
          operationId: 'sendMessage',
          tags: ['sessions'],
          summary: 'Start a turn',
          description: 'Streams the turn as server-sent events; with `Accept: application/json`, waits and returns the result.',
          requestBody: { required: true, content: json(MessageBody) },
          responses: { '200': { description: 'The turn', content: { ...sse, ...jsonRef('TurnResult') } }, '409': failure('A turn is running, or interrupts wait'), ...errors, ...posted },
        },
      },
      '/v1/sessions/{id}/events': {
        parameters: id,
        get: {
          operationId: 'streamEvents',
          tags: ['sessions'],
          summary: "The session's events, live",
          description: '`Last-Event-ID` (or `after`) resumes after the last event seen.',
          parameters: [
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'The id of the last event seen' },
            { name: 'after', in: 'query', required: false, schema: { type: 'string' }, description: 'Same as Last-Event-ID, for clients that cannot set headers' },
          ],
          responses: { '200': { description: 'Events', content: sse }, ...errors },
        },
      },
      '/v1/sessions/{id}/interrupts': {
        parameters: id,
        post: {
          operationId: 'answerInterrupts',
          tags: ['sessions'],
          summary: 'Answer the waiting interrupts (or continue a cancelled turn) and go on',
          description: 'Streams the continued turn; with `Accept: application/json`, waits and returns the result. A turn cancelled at a safe point waits on nothing: `{}` continues it.',
          requestBody: { required: true, content: json(InterruptsBody) },
          responses: { '200': { description: 'The continued turn', content: { ...sse, ...jsonRef('TurnResult') } }, '409': failure('Nothing waits, or a turn is running'), ...errors, ...posted },
        },
      },
      '/v1/sessions/{id}/cancel': {
        parameters: id,
        post: {
          operationId: 'cancelTurn',
          tags: ['sessions'],
          summary: 'Stop the running turn at a safe point',
          description: 'Takes no body. The turn is saved; POST /interrupts with `{}` continues it (`resumable` on the session says when it can).',
          responses: { '202': { description: 'Whether a turn was stopped', content: jsonRef('CancelResult') }, ...errors },
        },
      },
    },
  };
}

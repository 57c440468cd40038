import * as z from 'zod';
import { CreateSessionBody, ErrorBody, InterruptsBody, MessageBody } from './schemas.js';

const json = (schema: z.ZodType) => ({ 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } });
const sse = { 'text/event-stream': { schema: { type: 'string', description: 'Server-sent events: `event: <type>`, `id: <seq>`, `data: <JSON>` as `adk run --json` prints them' } } };
const errors = {
  '400': { description: 'Invalid body (the field path is named)', content: json(ErrorBody) },
  '404': { description: 'No such session', content: json(ErrorBody) },
  '503': { description: 'The server is stopping: send it again once it is back', content: json(ErrorBody) },
};
const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Session id (a unique prefix works)' }];

/** The OpenAPI 3.1 document served at `/openapi.json`. */
export function openApiDocument(version: string): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 'adk serve', version, description: 'Agent teams over HTTP: sessions, turns streamed as server-sent events, interrupts answered by people.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'ADK_SERVE_TOKEN (required when the server listens beyond loopback)' } } },
    security: [{ bearer: [] }, {}],
    paths: {
      '/v1/agents': { get: { summary: 'The team tree', responses: { '200': { description: 'The agents' } } } },
      '/v1/sessions': {
        get: { summary: 'Saved sessions, newest first', responses: { '200': { description: 'Sessions' } } },
        post: { summary: 'Start a session', requestBody: { required: false, content: json(CreateSessionBody) }, responses: { '201': { description: '{ id }' }, ...errors } },
      },
      '/v1/sessions/{id}': {
        parameters: id,
        get: { summary: 'History, status and pending interrupts', responses: { '200': { description: 'The session' }, ...errors } },
        delete: { summary: 'Delete a session (stops its turn)', responses: { '204': { description: 'Deleted' }, ...errors } },
      },
      '/v1/sessions/{id}/messages': {
        parameters: id,
        post: {
          summary: 'Start a turn',
          description: 'Streams the turn as server-sent events; with `Accept: application/json`, waits and returns the result.',
          requestBody: { required: true, content: json(MessageBody) },
          responses: { '200': { description: 'The turn', content: { ...sse, 'application/json': { schema: { type: 'object' } } } }, '409': { description: 'A turn is running, or interrupts wait', content: json(ErrorBody) }, ...errors },
        },
      },
      '/v1/sessions/{id}/events': {
        parameters: id,
        get: { summary: "The session's events, live", description: '`Last-Event-ID` resumes after the last event seen.', responses: { '200': { description: 'Events', content: sse }, ...errors } },
      },
      '/v1/sessions/{id}/interrupts': {
        parameters: id,
        post: { summary: 'Answer the waiting interrupts and go on', requestBody: { required: true, content: json(InterruptsBody) }, responses: { '200': { description: 'The continued turn', content: sse }, '409': { description: 'Nothing waits', content: json(ErrorBody) }, ...errors } },
      },
      '/v1/sessions/{id}/cancel': { parameters: id, post: { summary: 'Stop the running turn at a safe point (resumable)', responses: { '202': { description: '{ cancelled }' }, ...errors } } },
    },
  };
}

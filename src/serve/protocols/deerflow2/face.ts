import type { PendingInterrupt } from '../../../core/store/session-record.js';
import type { LangGraphFace } from '../langgraph/face.js';
import type { LgInterrupt } from '../langgraph/interrupts.js';
import type { LcMessage } from '../langgraph/messages.js';
import type { RunRequest } from '../langgraph/requests.js';
import type { ThreadValues } from '../langgraph/state.js';
import { clarificationRequest, type HumanInputRequest } from './human-input.js';

/** The assistant id DeerFlow 2's front end always runs (its `lead_agent` graph). */
export const DEERFLOW2_ASSISTANT = 'lead_agent';

/**
 * The LangGraph API as DeerFlow 2's front end reads it (bytedance/deer-flow main, `frontend/`):
 * `lead_agent` is the team adk serves by default; the state carries `artifacts`; each question
 * adk waits on (an approval, a question, a plan to review) is drawn as DeerFlow's own
 * `ask_clarification` card (a tool message with `artifact.human_input`), and the card's reply (a
 * human message with `additional_kwargs.human_input_response`), or any plain message typed
 * instead, answers it through adk's targeted resume.
 */
export function deerFlow2Face(defaultTeam: () => string): LangGraphFace {
  return {
    assistant: (id) => (id === DEERFLOW2_ASSISTANT ? defaultTeam() : undefined),
    values: (values, interrupts) => withCards({ artifacts: [], ...values }, interrupts),
    request: (body, pending) => asResume(body, pending),
    routes: (app, api) => {
      // The page's history on reload: every message of the thread, oldest first, in one page.
      app.get('/threads/:id/messages/page', async (c) => {
        const v = await api.values(c.req.param('id'));
        if (!v) return c.json({ detail: `no thread ${c.req.param('id')}` }, 404);
        return api.json(c, { data: runMessages(c.req.param('id'), v.messages), has_more: false, next_before_seq: null });
      });
    },
  };
}

/** DeerFlow's `RunMessage` rows: one run per turn (a person's message and what followed it). */
function runMessages(thread: string, messages: readonly LcMessage[]) {
  let turn = 0;
  return messages.map((m, i) => {
    if (m.type === 'human' && i > 0) turn++;
    return { run_id: `${thread}:turn:${turn}`, seq: i + 1, content: m, metadata: { caller: DEERFLOW2_ASSISTANT }, created_at: '' };
  });
}

/** The state with one clarification card per waiting interrupt after the messages. */
function withCards(values: ThreadValues, interrupts: readonly LgInterrupt[]): ThreadValues {
  if (!interrupts.length) return values;
  const cards = interrupts.flatMap((i) => card(clarificationRequest(i)));
  return { ...values, messages: [...values.messages, ...cards] };
}

/** DeerFlow's card: the model's `ask_clarification` call and its tool message holding the request. */
function card(request: HumanInputRequest): LcMessage[] {
  const callId = request.tool_call_id!;
  return [
    {
      type: 'ai',
      id: `${request.request_id}:ask`,
      content: '',
      tool_calls: [{ name: 'ask_clarification', args: { question: request.question, clarification_type: request.clarification_type, ...(request.context ? { context: request.context } : {}) }, id: callId, type: 'tool_call' }],
      additional_kwargs: {},
      response_metadata: {},
    },
    {
      type: 'tool',
      id: request.request_id,
      name: 'ask_clarification',
      tool_call_id: callId,
      content: request.context ? `${request.question}\n\n${request.context}` : request.question,
      status: 'success',
      artifact: { human_input: request },
      additional_kwargs: {},
      response_metadata: {},
    },
  ];
}

/**
 * A run DeerFlow 2 sends while the thread waits: the card's reply names its interrupt
 * (`request_id`); a plain message answers the only interrupt there is. Only the card's Approve
 * button approves a call: any typed text (in the card or the message box) refuses it and tells the
 * model why, so an "ok" meant as an acknowledgement never runs a command. Anything else stays as
 * sent (and is refused as usual: the thread waits on its interrupts).
 */
function asResume(body: RunRequest, pending: readonly PendingInterrupt[]): RunRequest {
  if (body.command?.resume !== undefined) return body;
  const last = lastHuman(body.input);
  if (!last) return body;
  const reply = last.additional_kwargs?.human_input_response as { request_id?: unknown; response_kind?: unknown; option_id?: unknown; value?: unknown } | undefined;
  const target = typeof reply?.request_id === 'string' ? pending.find((p) => p.id === reply.request_id) : pending.length === 1 ? pending[0] : undefined;
  if (!target) return body;
  const option = reply?.response_kind === 'option' && typeof reply.option_id === 'string' ? reply.option_id : undefined;
  const text = option === undefined ? (typeof reply?.value === 'string' ? reply.value : textOf(last.content)) : undefined;
  const answer = target.kind === 'approval' ? approvalAnswer(option, text) : (option ?? text);
  if (answer === undefined) return body;
  return { ...body, input: null, command: { resume: { [target.id]: answer } } };
}

/** An approval's answer: the buttons approve or reject; typed words reject and reach the model as the reason. */
function approvalAnswer(option: string | undefined, text: string | undefined): unknown {
  if (option === 'approve') return { approved: true };
  if (option !== undefined) return { approved: false };
  if (text === undefined) return undefined;
  return text.trim() ? { approved: false, reason: text.trim() } : { approved: false };
}

type HumanMessage = { content?: unknown; additional_kwargs?: Record<string, unknown> };

function lastHuman(input: unknown): HumanMessage | undefined {
  const list = input && typeof input === 'object' ? (input as { messages?: unknown }).messages : undefined;
  if (!Array.isArray(list)) return undefined;
  const m = list[list.length - 1] as { type?: unknown; role?: unknown } | undefined;
  return m && (m.type === 'human' || m.role === 'user') ? (m as HumanMessage) : undefined;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  return undefined;
}

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentEvent } from '../../core/agents/types.js';
import type { RunInbox } from '../../core/agents/run-context.js';
import { toError } from '../../core/errors.js';
import type { InterruptContext } from '../../core/interrupt.js';
import { useBatchedReducer } from '../hooks/use-batched-reducer.js';
import { DEFAULT_SLASH_COMMANDS, type SlashCommandInfo } from '../input/slash-commands.js';
import { coalesceViewActions } from '../state/coalesce.js';
import { consumeRun, type RunOutcome } from '../state/consume-run.js';
import { viewReducer } from '../state/reducer.js';
import { STREAM_COMMIT_MS } from '../state/stream-reducer.js';
import type { Todo } from '../../core/prebuilt/deep/todos.js';
import { initialViewState, type NewTranscriptItem, type PendingInterrupt, type ViewState } from '../state/transcript.js';
import { answerNote, autoAnswer, mustAsk, resumeData, type PromptAnswer } from './answers.js';
import { defaultCommand, parseCommand, type ChatUi } from './commands.js';
import type { ModelPrice } from '../../core/models/pricing.js';
import type { PickerItem } from '../components/Picker.js';

/** Everything the app needs from its host; the runtime itself is built by the caller. */
export interface ChatControllerOptions {
  /** Starts a run for what the person typed. */
  runTurn: (text: string, signal: AbortSignal, inbox?: RunInbox) => AsyncIterable<AgentEvent>;
  /** Continues the stopped run: one answer per interrupt id (approval decisions, answers, plan reviews). */
  answerInterrupts: (answers: Record<string, unknown>, signal: AbortSignal, inbox?: RunInbox) => AsyncIterable<AgentEvent>;
  /** Messages typed while a run works, offered to it at its next safe point (after its tool calls). */
  inbox?: RunInbox | undefined;
  /** `!command`: the host runs it (no approval: the person typed it) and adds it to the context. */
  runShell?: (command: string, signal: AbortSignal) => AsyncIterable<AgentEvent>;
  /** Slash commands; return true when handled, anything else falls back to the built-in behaviour. */
  onCommand?: (name: string, args: string, ui: ChatUi) => boolean | void | Promise<boolean | void>;
  commands?: readonly SlashCommandInfo[];
  /** After every run (save the session here). */
  onRunEnd?: (outcome: RunOutcome) => void;
  /** Interrupts an earlier process left (`adk resume <id>`): their prompts open at once. */
  initialInterrupts?: InterruptContext[];
  /** Items shown first (a welcome line, an earlier transcript). */
  initialItems?: NewTranscriptItem[];
  /** The todo list a deep agent left in the session: shown again when its run resumes. */
  initialTodos?: Todo[];
  /** Tokens the session used before (a resumed session): the status line and /cost count on from here. */
  initialUsage?: { promptTokens: number; completionTokens: number };
  /** Tools approved for the whole session already (the host keeps them with the session). */
  alwaysApproved?: readonly string[];
  onAlwaysApprove?: (tool: string) => void;
  /** Choice 2 of an approval: the host saves a rule so calls like this one run unasked in this folder. */
  onRemember?: (tool: string, args: unknown) => { text: string; tone: 'muted' | 'error' } | void;
  /** Whether a saved rule now allows this call (one of several asked at once, after choice 2 saved a rule). */
  ruleAllows?: (tool: string, args: unknown) => boolean;
  /** Tools that ask before every call whatever grants and rules say (shell without its sandbox): never answered here. */
  alwaysAsks?: (tool: string) => boolean;
  /** The session shown; grants made here never outlive it (`/new`, `/resume` start over). */
  sessionId?: string;
  onExit: (reason: 'command' | 'ctrl-c' | 'ctrl-d') => void;
  /** The model's price per million tokens: the status line and `/cost` show what the session cost. */
  price?: ModelPrice | undefined;
  /** Render at most once per this many ms while streaming (default FRAME_MS, 25 fps). */
  frameMs?: number;
  /** Replaces the message box's text (the app owns the box). */
  setInput?: (text: string) => void;
  /** `/clear`: empties the visible screen, keeping the scrollback (the app owns the terminal). */
  onClearScreen?: () => void;
}

function init(o: ChatControllerOptions): ViewState {
  let s = initialViewState();
  if (o.initialUsage) s = { ...s, usage: { promptTokens: o.initialUsage.promptTokens, completionTokens: o.initialUsage.completionTokens } };
  for (const item of o.initialItems ?? []) s = viewReducer(s, { type: 'append', item });
  if (o.initialInterrupts?.length) s = viewReducer(s, { type: 'interrupted', agent: '', contexts: o.initialInterrupts });
  if (o.initialTodos?.length) s = viewReducer(s, { type: 'todos', todos: o.initialTodos });
  return s;
}

export function useChatController(o: ChatControllerOptions) {
  const [state, dispatch] = useBatchedReducer(viewReducer, () => init(o), { frameMs: o.frameMs, coalesce: coalesceViewActions });
  const [busy, setBusy] = useState(false);
  // A slash command at work (`/model` loading its team): messages typed meanwhile wait in the queue.
  const [commanding, setCommanding] = useState(false);
  const [startedAt, setStartedAt] = useState<number>();
  const [answers, setAnswers] = useState<Record<string, PromptAnswer>>({});
  /** Argument choices offered after a command (`/model <id>`), set by command handlers. */
  const [choices, setChoices] = useState<SlashCommandInfo[]>([]);
  const [picker, setPicker] = useState<{ title: string; items: readonly PickerItem[]; filter?: boolean; done: (value: string | undefined) => void }>();
  // Grants made in this view, for the session they were made in only.
  const granted = useRef({ sessionId: o.sessionId, tools: new Set<string>() });
  if (granted.current.sessionId !== o.sessionId) granted.current = { sessionId: o.sessionId, tools: new Set() };
  const alwaysApproved = () => new Set([...(opts.current.alwaysApproved ?? []), ...granted.current.tools]);
  const abort = useRef<AbortController>(undefined);
  const opts = useRef(o);
  opts.current = o;
  const latest = useRef(state);
  latest.current = state;
  // Usage when the last run started: `/cost` tells that run's share.
  const turnStart = useRef<{ promptTokens: number; completionTokens: number } | undefined>(undefined);

  const run = useCallback(
    async (start: (signal: AbortSignal) => AsyncIterable<AgentEvent>): Promise<RunOutcome> => {
      const ac = new AbortController();
      abort.current = ac;
      turnStart.current = { ...latest.current.usage };
      setBusy(true);
      setStartedAt(Date.now());
      let outcome: RunOutcome;
      try {
        outcome = await consumeRun(start(ac.signal), dispatch, { signal: ac.signal });
      } catch (e) {
        dispatch({ type: 'error', text: toError(e).message });
        dispatch({ type: 'runEnd' });
        outcome = { interrupts: [], cancelled: false, exit: false, error: toError(e) };
      }
      dispatch.flush();
      abort.current = undefined;
      setBusy(false);
      setStartedAt(undefined);
      opts.current.onRunEnd?.(outcome);
      return outcome;
    },
    [dispatch],
  );

  const ui: ChatUi = useMemo(
    () => ({
      info: (text, tone) => dispatch({ type: 'info', text, tone }),
      error: (text) => dispatch({ type: 'error', text }),
      markdown: (text, title = 'adk') => dispatch({ type: 'append', item: { kind: 'assistant', agent: title, text, messageId: '', showHeader: true } }),
      append: (item) => dispatch({ type: 'append', item }),
      clear: (usage, o) => {
        if (o?.screen) opts.current.onClearScreen?.();
        dispatch({ type: 'clear', usage });
      },
      // A function of the run's signal: Esc stops it as it stops a typed message's turn.
      run: (events) => run(typeof events === 'function' ? events : () => events),
      usage: () => latest.current.usage,
      usageByModel: () => latest.current.usageByModel,
      lastTurnUsage: () => {
        const start = turnStart.current;
        const now = latest.current.usage;
        return start ? { promptTokens: now.promptTokens - start.promptTokens, completionTokens: now.completionTokens - start.completionTokens } : undefined;
      },
      price: () => opts.current.price,
      expandLast: () => dispatch({ type: 'expandLast' }),
      choices: (command, values) =>
        setChoices((prev) => [...prev.filter((c) => !c.name.startsWith(`${command} `)), ...values.map((v) => ({ name: `${command} ${v.value}`, description: v.description }))]),
      exit: () => opts.current.onExit('command'),
      setInput: (text) => opts.current.setInput?.(text),
      pick: (title, items, options) =>
        items.length
          ? new Promise<string | undefined>((resolve) =>
              setPicker({
                title,
                items,
                filter: options?.filter,
                done: (value) => {
                  setPicker(undefined);
                  resolve(value);
                },
              }),
            )
          : Promise.resolve(undefined),
    }),
    [dispatch, run],
  );

  const submit = useCallback(
    /** `shown`: the message as the box showed it (big pastes as their labels), for the transcript. */
    async (text: string, shown?: string) => {
      const commands = opts.current.commands ?? DEFAULT_SLASH_COMMANDS;
      const command = parseCommand(text, commands);
      dispatch({ type: 'user', text: shown ?? text });
      dispatch.flush();
      if (command) {
        setCommanding(true);
        try {
          const handled = await opts.current.onCommand?.(command.name, command.args, ui);
          if (handled !== true) defaultCommand(command.name, ui, commands);
        } catch (e) {
          ui.error(`${command.name} failed: ${toError(e).message}`);
        } finally {
          setCommanding(false);
        }
        return;
      }
      const shell = opts.current.runShell;
      if (shell && text.startsWith('!') && text.slice(1).trim()) {
        await run((signal) => shell(text.slice(1).trim(), signal));
        return;
      }
      await run((signal) => opts.current.runTurn(text, signal, opts.current.inbox));
    },
    [dispatch, run, ui],
  );

  const answer = useCallback(
    (p: PendingInterrupt, a: PromptAnswer) => {
      if (a.kind === 'approval' && a.choice.approved && 'always' in a.choice && p.info.tool && !mustAsk(p, opts.current.alwaysAsks)) {
        granted.current.tools.add(p.info.tool);
        opts.current.onAlwaysApprove?.(p.info.tool);
      }
      const saved = a.kind === 'approval' && a.choice.approved && 'remember' in a.choice && p.info.tool ? opts.current.onRemember?.(p.info.tool, p.info.arguments) : undefined;
      if (saved) dispatch(saved.tone === 'error' ? { type: 'error', text: saved.text } : { type: 'info', tone: 'muted', text: saved.text });
      dispatch({ type: 'info', tone: 'muted', text: answerNote(p, a) });
      setAnswers((prev) => ({ ...prev, [p.id]: a }));
    },
    [dispatch],
  );

  // Approvals granted for the session answer themselves; once every point has an answer, resume.
  useEffect(() => {
    if (busy || !state.interrupts.length) return;
    const auto: Record<string, PromptAnswer> = {};
    const always = alwaysApproved();
    const byRule = new Set<string>();
    for (const p of state.interrupts) {
      let a = answers[p.id] ? undefined : autoAnswer(p, always, opts.current.alwaysAsks);
      if (!a && !answers[p.id] && p.info.kind === 'approval' && !p.info.mayHaveRun && !mustAsk(p, opts.current.alwaysAsks) && p.info.tool && opts.current.ruleAllows?.(p.info.tool, p.info.arguments)) {
        a = { kind: 'approval', choice: { approved: true } };
        byRule.add(p.id);
      }
      if (a) auto[p.id] = a;
    }
    if (Object.keys(auto).length) {
      for (const p of state.interrupts) {
        if (auto[p.id]) dispatch({ type: 'info', tone: 'muted', text: `${answerNote(p, auto[p.id])} (${byRule.has(p.id) ? 'a permission rule allows it' : 'allowed this session'})` });
      }
      setAnswers((prev) => ({ ...prev, ...auto }));
      return;
    }
    if (!state.interrupts.every((p) => answers[p.id])) return;
    const data = Object.fromEntries(state.interrupts.map((p) => [p.id, resumeData(answers[p.id])]));
    dispatch({ type: 'interruptsAnswered' });
    dispatch.flush();
    setAnswers({});
    void run((signal) => opts.current.answerInterrupts(data, signal, opts.current.inbox));
  }, [busy, state.interrupts, answers, dispatch, run]);

  // Finished paragraphs wait in the live tail for the next delta; a stream that pauses gets them moved anyway.
  const cutWaiting = state.live.some((x) => x.kind === 'message' && x.pendingCut);
  useEffect(() => {
    if (!cutWaiting) return;
    const t = setTimeout(() => dispatch({ type: 'commitLive', at: Date.now() }), STREAM_COMMIT_MS);
    return () => clearTimeout(t);
  }, [cutWaiting, state.live, dispatch]);

  // Questions known while a run still works (a parallel branch waits) can be answered at once; the run
  // resumes with the answers when it stops.
  const pending = state.interrupts.filter((p) => !answers[p.id]);
  // One that must ask is marked so, whoever knew it (the core or the host): its prompt offers no "always".
  const first = pending[0];
  const prompt = first
    ? { interrupt: mustAsk(first, o.alwaysAsks) && !first.info.alwaysAsks ? { ...first, info: { ...first.info, alwaysAsks: true as const } } : first, counter: state.interrupts.length > 1 ? `${state.interrupts.length - pending.length + 1}/${state.interrupts.length}` : undefined }
    : undefined;

  const cancel = useCallback(() => abort.current?.abort(), []);
  const dismiss = useCallback(() => {
    const n = latest.current.interrupts.length;
    if (!n) return;
    dispatch({ type: 'interruptsDismissed' });
    dispatch({ type: 'info', tone: 'warning', text: `Left ${n} question${n > 1 ? 's' : ''} unanswered. The session is saved; resume it later to answer.` });
    setAnswers({});
  }, [dispatch]);

  return { state, busy, commanding, startedAt, prompt, submit, answer, cancel, dismiss, ui, choices, picker };
}

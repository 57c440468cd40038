import { Box, measureElement, type DOMElement } from 'ink';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { InputBox } from '../components/InputBox.js';
import { StatusLine } from '../components/StatusLine.js';
import { Transcript } from '../components/Transcript.js';
import { useBracketedPaste } from '../hooks/use-bracketed-paste.js';
import { useElapsed } from '../hooks/use-elapsed.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import type { ChangeSubscription } from '../hooks/use-change-count.js';
import { DEFAULT_SLASH_COMMANDS } from '../input/slash-commands.js';
import { TodoPanel, todoPanelRows } from '../components/TodoPanel.js';
import { ActivityLine } from './ActivityLine.js';
import { QueuedMessages, queuedRows } from '../components/QueuedMessages.js';
import { Picker } from '../components/Picker.js';
import { ScreenFit } from '../components/ScreenFit.js';
import { PlanReviewPrompt } from '../components/PlanReviewPrompt.js';
import { approvalMenuRows } from '../components/approval-menu.js';
import { GuardKeys } from '../hooks/key-guard.js';
import { useModeKey } from './use-mode-key.js';
import type { PlanModeDecision } from './plan-mode.js';
import type { ChatUi } from './commands.js';
import { argLinesFor, estimatePromptRows } from './bottom-size.js';
import { InterruptPrompt } from './InterruptPrompt.js';
import { useChatController, type ChatControllerOptions } from './use-chat-controller.js';
import { useExitKeys } from './use-exit-keys.js';
import { useScrollAway } from '../hooks/use-scroll-away.js';
import { TranscriptView } from '../components/TranscriptView/TranscriptView.js';
import { costUsd } from '../../core/models/pricing.js';
import { livePath } from '../../core/agents/live-path.js';
import { canMoveToBackground } from '../state/tool-reducer.js';
import type { RunInbox } from '../../core/agents/run-context.js';


const isCommandText = (text: string) => text.startsWith('/') || text.startsWith('!');

const NO_PARENTS: ReadonlyMap<string, string> = new Map();

export interface ChatAppProps extends ChatControllerOptions {
  /** Earlier inputs, oldest first; `onHistoryAdd` is called with each new one (persist it there). */
  history?: readonly string[];
  onHistoryAdd?: (text: string) => void;
  model?: string;
  /** The model's context window, for the status line's `ctx` meter. */
  contextWindow?: number;
  sessionId?: string;
  /** The session is saved (the host sets it after saving). */
  saved?: boolean;
  /** Turn the terminal's bracketed paste mode on while mounted (default true; only on a TTY). */
  bracketedPaste?: boolean;
  /** Keys are not answers until a prompt has been visible this long (default 400 ms; tests may set 0). */
  promptArmMs?: number;
  /** Ctrl-Z: the host hands the terminal to the shell (job control) and continues on `fg`. */
  onSuspend?: () => void;
  /** Ctrl-G: the host opens $EDITOR on the message and returns the edited text (undefined: unchanged). */
  editInEditor?: (text: string) => string | undefined;
  /** Tab after `@`: paths that complete the prefix (the host lists the workspace). */
  completePath?: (prefix: string) => string[];
  /** Told when `completePath`'s answers may have grown (MCP resources arrived): the picker searches again. */
  completionsChanged?: ChangeSubscription;
  /** Ctrl-B while a shell command runs: the host moves it to the background (its job ids). */
  onBackground?: () => string[];
  /** Each agent's parent in the team (core's `agentParents`): the breadcrumb drops finished siblings. */
  agentParents?: ReadonlyMap<string, string>;
  /** The permission mode's words for the status line (none: the default mode). */
  permissionMode?: string | undefined;
  /** Shift-Tab: the host moves to the next permission mode. */
  onCycleMode?: () => void;
  /** The plan a plan-mode turn ended with: reviewed in place of the input box. */
  planReview?: string | undefined;
  /** The review's answer; the host returns what to send next (if anything). */
  onPlanDecision?: (decision: PlanModeDecision, ui: ChatUi) => Promise<string | undefined>;
  /** Fixed size (tests); by default the terminal's, following resizes. */
  columns?: number;
  rows?: number;
}

/**
 * `adk chat`: the transcript (finished items in the terminal's scrollback, a capped live tail), the
 * prompt for a waiting interrupt or the input box, and the status line.
 */
export function ChatApp(props: ChatAppProps) {
  const size = useTerminalSize();
  const columns = props.columns ?? size.columns;
  const rows = props.rows ?? size.rows;
  const width = Math.max(20, columns - 1);
  // Messages entered while a run works: sent together when the turn ends, or taken by the run at its
  // next safe point (after its tool calls). Esc takes them back to edit. The ref is what the run reads.
  const [queued, setQueuedState] = useState<readonly string[]>([]);
  const queuedNow = useRef<readonly string[]>([]);
  const setQueued = useCallback((next: readonly string[]) => {
    queuedNow.current = next;
    setQueuedState(next);
  }, []);
  const addHistory = useRef<(text: string) => void>(() => {});
  const inbox = useMemo<RunInbox>(
    () => ({
      take: () => {
        const q = queuedNow.current;
        // A command is the person's to run, not the model's to read: the queue waits for the turn to end.
        if (!q.length || q.some(isCommandText)) return [];
        setQueued([]);
        const text = q.join('\n\n');
        addHistory.current(text);
        return [text];
      },
    }),
    [setQueued],
  );
  // The box's text is the app's; a command (a rewind) puts a message back in it through the controller.
  const setInputRef = useRef<(text: string) => void>(() => {});
  const scrollAway = useScrollAway();
  const c = useChatController({ ...props, inbox, setInput: (text) => setInputRef.current(text), onClearScreen: scrollAway });
  useBracketedPaste(props.bracketedPaste ?? true);
  useModeKey(props.onCycleMode);
  // Plan mode: the finished turn's plan waits for a decision before anything else is typed.
  const reviewing = props.planReview !== undefined && !c.busy && !c.prompt && !c.picker;
  const decidePlan = (d: PlanModeDecision) =>
    void props.onPlanDecision?.(d, c.ui).then((next) => {
      if (next) void c.submit(next);
    });
  const [inputKey, setInputKey] = useState(0);
  const inputText = useRef('');
  const [history, setHistory] = useState<readonly string[]>(props.history ?? []);
  setInputRef.current = (text) => {
    inputText.current = text;
    setInputKey((k) => k + 1);
  };

  // Ctrl-O: the transcript view (issue 32) in place of the input area; Ctrl-O or Esc again leaves it.
  const [viewing, setViewing] = useState(false);
  const hint = useExitKeys({
    expand: () => setViewing((v) => !v),
    busy: c.busy && !viewing,
    hasPrompt: !!c.prompt || reviewing,
    inputEmpty: () => inputText.current === '',
    cancel: () => {
      // The first Esc takes the queued messages back into the box; the next one stops the run.
      if (!queuedNow.current.length) return c.cancel();
      const back = [...queuedNow.current, inputText.current].filter(Boolean).join('\n\n');
      setQueued([]);
      inputText.current = back;
      setInputKey((k) => k + 1);
    },
    dismiss: c.dismiss,
    clearInput: () => {
      if (!inputText.current) return;
      inputText.current = '';
      setInputKey((k) => k + 1);
    },
    onExit: props.onExit,
    onRewind: !c.picker && !c.commanding && (props.commands ?? DEFAULT_SLASH_COMMANDS).some((k) => k.name === '/rewind') ? () => void c.submit('/rewind') : undefined,
    onSuspend: props.onSuspend,
    onEditor: props.editInEditor
      ? () => {
          const edited = props.editInEditor!(inputText.current);
          if (edited === undefined) return;
          inputText.current = edited.replace(/\n+$/, '');
          setInputKey((k) => k + 1);
        }
      : undefined,
    onBackground: props.onBackground
      ? () => {
          const ids = props.onBackground!();
          if (ids.length) c.ui.info(`moved to the background: ${ids.join(', ')} (the model reads it with shell_output; leaving adk stops it)`, 'muted');
        }
      : undefined,
  });

  addHistory.current = (text: string) => {
    setHistory((h) => (h[h.length - 1] === text ? h : [...h, text]));
    props.onHistoryAdd?.(text);
  };
  const onSubmit = useCallback(
    (text: string, shown?: string) => {
      inputText.current = '';
      addHistory.current(text);
      void c.submit(text, shown);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [c.submit, props.onHistoryAdd],
  );

  // The turn is over and nothing waits for an answer: the queued messages go, as one message.
  useEffect(() => {
    if (c.busy || c.commanding || c.prompt || c.state.interrupts.length || !queued.length) return;
    const text = queued.join('\n\n');
    setQueued([]);
    onSubmit(text);
  }, [c.busy, c.commanding, c.prompt, c.state.interrupts.length, queued, onSubmit]);

  // The live tail gets the rows the bottom area leaves free (measured after each frame).
  const bottom = useRef<DOMElement>(null);
  const [bottomRows, setBottomRows] = useState(4);
  useLayoutEffect(() => {
    if (!bottom.current) return;
    const h = measureElement(bottom.current).height;
    if (h !== bottomRows) setBottomRows(h);
  });
  // The whole live area must stay below the screen height, or Ink clears the terminal. A prompt's
  // size is guessed for the frame it first appears in, before it can be measured.
  const promptRows = c.prompt ? estimatePromptRows(c.prompt.interrupt, width, rows) + 1 : 0;
  const maxLiveRows = Math.max(0, rows - Math.max(bottomRows, promptRows) - 2);
  // On a short screen the blank row above a prompt is the row that would make the frame as tall as
  // the screen (the prompt, the activity line and the status line must fit below it).
  const gapAbove = c.prompt && promptRows + (c.busy ? 1 : 0) + 1 >= rows - 1 ? 0 : 1;
  const elapsed = useElapsed(c.startedAt, !!c.prompt);
  // The input box gets what the status line, the activity line and the todo panel leave, with a row to spare.
  const todoRows = c.busy && c.state.todos?.length ? todoPanelRows(c.state.todos.length) : 0;
  const inputMaxRows = Math.max(3, rows - 4 - (c.busy ? 1 : 0) - todoRows - queuedRows(queued.length));

  return (
    <Box flexDirection="column">
      <Transcript state={c.state} width={width} maxLiveRows={viewing ? 0 : maxLiveRows} />
      {/* On a tiny window even the prompt and the status line may not fit: their top is cut. */}
      {viewing ? <TranscriptView items={c.state.committed} rows={rows - 1} width={width} onClose={() => setViewing(false)} /> : (
      <ScreenFit maxRows={rows - 1} width={width}>
        <Box ref={bottom} flexDirection="column" marginTop={gapAbove} width={width}>
        {c.prompt ? (
          <InterruptPrompt
            key={c.prompt.interrupt.id}
            interrupt={c.prompt.interrupt}
            counter={c.prompt.counter}
            width={width}
            maxArgLines={argLinesFor(rows)}
            compact={approvalMenuRows(rows) === 0}
            onAnswer={(a) => c.answer(c.prompt!.interrupt, a)}
            armMs={props.promptArmMs}
            onTypeAhead={(text) => (inputText.current += text)}
          />
        ) : null}
        {c.busy && c.state.todos?.length ? <TodoPanel todos={c.state.todos} width={width} /> : null}
        {c.busy ? <ActivityLine canBackground={!!props.onBackground && canMoveToBackground(c.state)} path={livePath(c.state.path, props.agentParents ?? NO_PARENTS)} elapsedMs={elapsed} width={width} retry={c.state.retry} /> : null}
        {queued.length ? <QueuedMessages messages={queued} width={width} /> : null}
        {!c.prompt && c.picker ? <Picker title={c.picker.title} items={c.picker.items} filter={c.picker.filter} width={width} maxRows={Math.max(3, rows - 10)} onPick={c.picker.done} /> : null}
        {reviewing ? (
          <GuardKeys armMs={props.promptArmMs} onTypeAhead={(text) => (inputText.current += text)}>
            <PlanReviewPrompt
              message="Plan mode: the plan is ready."
              plan={props.planReview!.split('\n')}
              text
              width={width}
              maxRows={argLinesFor(rows)}
              onDecision={(d) => decidePlan(d.accept ? { kind: 'accept' } : { kind: 'feedback', feedback: d.feedback })}
              onAcceptClear={() => decidePlan({ kind: 'accept-clear' })}
              onKeepPlanning={() => decidePlan({ kind: 'keep' })}
            />
          </GuardKeys>
        ) : null}
        {!c.prompt && !c.picker && !reviewing ? (
          <InputBox
            key={inputKey}
            initialText={inputText.current}
            history={history}
            onSubmit={onSubmit}
            onQueue={(text) => setQueued([...queuedNow.current, text])}
            onChange={(t) => (inputText.current = t)}
            commands={c.choices.length ? [...(props.commands ?? DEFAULT_SLASH_COMMANDS), ...c.choices] : (props.commands ?? DEFAULT_SLASH_COMMANDS)}
            busy={c.busy || c.commanding}
            placeholder={c.busy ? undefined : 'Message, or / for commands'}
            width={width}
            maxRows={inputMaxRows}
            completePath={props.completePath}
            completionsChanged={props.completionsChanged}
          />
        ) : null}
        <StatusLine
          model={props.model}
          sessionId={props.sessionId}
          tokensIn={c.state.usage.promptTokens}
          tokensOut={c.state.usage.completionTokens}
          contextTokens={c.state.contextTokens}
          contextWindow={props.contextWindow}
          costUsd={props.price ? costUsd(c.state.usage, props.price) : undefined}
          elapsedMs={c.busy ? elapsed : undefined}
          saved={props.saved}
          hint={hint}
          mode={props.permissionMode}
          width={width}
        />
        </Box>
      </ScreenFit>
      )}
    </Box>
  );
}

import { realPathOrSelf } from '../paths.js';
import { render } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { InterruptContext } from '../../core/index.js';
import type { AdkStores, SessionLease, SessionRecord } from '../../core/store/index.js';
import { REPL_RENDER_OPTIONS, ChatApp, inkStdout, type NewTranscriptItem } from '../../ui/index.js';
import { Conversation } from '../../core/conversation/conversation.js';
import { agentParents } from '../../core/agents/live-path.js';
import { suspendToShell } from './suspend.js';
import { editInEditor } from './external-editor.js';
import { LiveFrame } from './live-frame.js';
import type { Todo } from '../../core/prebuilt/deep/todos.js';
import type { Team, TeamOptions } from '../team.js';
import { ChatHost } from './chat-host.js';
import { sessionItems } from './history-items.js';
import { InputHistory } from './input-history.js';
import { signalExitCode, stopOnSignals } from '../signals.js';
import type { StartupKeys } from './startup-keys.js';
import { handleCommand } from './slash-commands.js';
import { permissionNotices, rememberRule } from './permissions-command.js';
import { ruleAllows } from '../../core/agents/allow-rules.js';
import type { StartingMode } from './permission-mode.js';
import { PermissionModes } from './permission-modes-state.js';
import { mcpPromptCommands } from './mcp-mentions.js';
import { skillCommandInfos, startCommandInfos } from './local-commands.js';
import { startIdleCollector } from './idle-collector.js';

export interface ReplOptions {
  stores: AdkStores;
  team: Team;
  record?: SessionRecord;
  /** The lease on `record`'s id, or on the id of the session to create. */
  lease: SessionLease;
  teamOptions: TeamOptions;
  demoNote?: string;
  /** How long a prompt ignores keys after it appears (ADK_PROMPT_ARM_MS; default 400). */
  promptArmMs?: number;
  /** The keys read while adk started (Ctrl-C watched): handed to the REPL as it opens. */
  startupKeys?: StartupKeys;
  /** The permission mode to start in, and whether bypass may be cycled to (--dangerously-skip-permissions). */
  modes?: StartingMode;
}

/** What the REPL opens with: the host of its conversation, the first transcript rows, the waiting questions. */
export interface ReplStart {
  host: ChatHost;
  initialItems: NewTranscriptItem[];
  initialInterrupts: InterruptContext[];
  /** The session's last todo list, while its turn is still open (interrupted or cancelled). */
  initialTodos?: Todo[];
}


/** Opens (or creates) the session and builds what the REPL shows first. */
export async function prepareRepl(o: ReplOptions): Promise<ReplStart> {
  const conv = o.record ? Conversation.open(o.stores, o.team, o.record, o.lease) : await Conversation.create(o.stores, o.team, o.lease);
  const host = new ChatHost(o.stores, conv, o.teamOptions);
  if (o.modes) host.modes = new PermissionModes(o.modes);
  const items: NewTranscriptItem[] = [];
  if (o.demoNote) items.push({ kind: 'info', text: o.demoNote, tone: 'warning' });
  const unsandboxed = await o.team.sandboxNotice;
  if (unsandboxed) items.push({ kind: 'info', text: unsandboxed, tone: 'warning' });
  for (const text of permissionNotices(o.team.workspace)) items.push({ kind: 'info', text, tone: 'warning' });
  if (o.team.hooksNotice) items.push({ kind: 'info', text: o.team.hooksNotice, tone: 'warning' });
  // SessionStart hooks: their context reaches the model with the first message.
  await o.team.hooks?.sessionStart(o.record ? 'resume' : 'startup', conv.id);
  const noCheckpoints = host.files.offReason(o.team.workspace);
  if (noCheckpoints) items.push({ kind: 'info', tone: 'warning', text: `Files are not checkpointed here (${noCheckpoints}): /rewind can restore the conversation only.` });
  if (o.record) {
    items.push({ kind: 'info', text: `Resumed session ${o.record.id}: ${o.record.title || '(untitled)'}`, tone: 'success' });
    if (o.team.workspace !== realPathOrSelf(process.cwd())) items.push({ kind: 'info', tone: 'muted', text: `Its tools work in ${o.team.workspace}, where it started.` });
    items.push(...sessionItems(o.record));
    if (o.record.status === 'cancelled' && o.record.checkpointId) {
      items.push({ kind: 'info', tone: 'warning', text: `The last run was cancelled at a safe point. Type /resume ${o.record.id} to continue it, or send a new message.` });
    }
  } else {
    items.push({ kind: 'info', tone: 'muted', text: `adk · ${o.team.agent.name} · session ${conv.id} · /help for commands` });
  }
  const pending = o.record?.status === 'interrupted' ? o.record.pendingInterrupts : [];
  // Everything the question was saved with (a diff, a plan, a budget's figures), as the run asked it.
  const initialInterrupts: InterruptContext[] = pending.map(({ id, address, mayHaveRun, alwaysAsks, ...info }) => ({
    id,
    address,
    info: { ...info, ...(mayHaveRun ? { mayHaveRun: true } : {}), ...(alwaysAsks ? { alwaysAsks: true } : {}) },
  }));
  const open = !!o.record?.checkpointId;
  return { host, initialItems: items, initialInterrupts, initialTodos: open ? (o.record?.todos as Todo[] | undefined) : undefined };
}

export interface ReplRootProps {
  start: ReplStart;
  history: InputHistory;
  onExit: () => void;
  /** Tests of everything but the type-ahead guard answer prompts at once. */
  promptArmMs?: number;
  /** Ctrl-Z (the app passes it on; startRepl stops the process and repaints on `fg`). */
  onSuspend?: () => void;
  /** Ctrl-G: the message in $EDITOR. */
  editInEditor?: (text: string) => string | undefined;
}

/** The app wired to its host: re-renders when the host's session, model or saved state changes. */
export function ReplRoot({ start: { host, initialItems, initialInterrupts, initialTodos }, history, onExit, promptArmMs, onSuspend, editInEditor }: ReplRootProps) {
  const [, rerender] = useState(0);
  useEffect(() => {
    host.onChange = () => rerender((n) => n + 1);
    return () => void (host.onChange = undefined);
  }, [host]);
  // Until the sandbox probe answers, shell counts as asking every time (its prompt offers no "always"); drawn again once known.
  useEffect(() => {
    let live = true;
    void host.team.alwaysAskKnown.then(() => live && rerender((n) => n + 1), () => {});
    return () => void (live = false);
  }, [host.team]);
  const [savedHistory] = useState(() => history.load());
  const parents = useMemo(() => agentParents(host.team.agent), [host.team]);
  // Built-ins and custom commands from the start; the skills and the MCP servers' prompts (`/server:prompt`) join once found.
  const [commands, setCommands] = useState(() => startCommandInfos(host.team.workspace, host.team));
  useEffect(() => {
    let live = true;
    const start = startCommandInfos(host.team.workspace, host.team);
    setCommands(start);
    const skills = skillCommandInfos(host.team.workspace, start).catch(() => []);
    void skills.then((k) => live && k.length && setCommands([...start, ...k]));
    void Promise.all([skills, mcpPromptCommands(host.team.mcp)]).then(([k, prompts]) => live && prompts.length && setCommands([...start, ...k, ...prompts]));
    return () => void (live = false);
  }, [host.team]);
  return (
    <ChatApp
      runTurn={host.runTurn}
      answerInterrupts={host.answerInterrupts}
      runShell={host.runShell}
      completePath={host.completePath}
      completionsChanged={host.onMentionsChanged}
      onCommand={(name, args, ui) => handleCommand(host, host.stores, name, args, ui)}
      commands={commands}
      history={savedHistory}
      onHistoryAdd={(text) => history.add(text)}
      model={host.team.modelName}
      agentParents={parents}
      contextWindow={host.team.contextWindow}
      price={host.team.price}
      sessionId={host.conv.id}
      saved={host.saved}
      initialItems={initialItems}
      initialInterrupts={initialInterrupts}
      initialTodos={initialTodos}
      initialUsage={host.conv.record.usage}
      alwaysApproved={host.conv.grants}
      promptArmMs={promptArmMs}
      onAlwaysApprove={host.grant}
      onRemember={(tool, args) => rememberRule(host.team, tool, args)}
      ruleAllows={(tool, args) => !host.team.alwaysAsk.includes(tool) && host.team.allowRules.some((r) => ruleAllows(r, tool, args, host.team.workspace))}
      alwaysAsks={(tool) => host.team.alwaysAsk.includes(tool)}
      permissionMode={host.modes.label}
      onCycleMode={host.cycleMode}
      planReview={host.modes.planToReview}
      onPlanDecision={host.decidePlan}
      onExit={onExit}
      onSuspend={onSuspend}
      editInEditor={editInEditor}
      onBackground={() => host.team.background()}
    />
  );
}

/** How long a stop signal lets the cancelled turn settle on screen before the REPL closes. */
const STOP_SETTLE_MS = 1000;
/** Time for the settled turn's last events to be drawn (a few of Ink's frames). */
const FINAL_FRAME_MS = 100;

/** Renders the REPL until the person exits; the session is saved at every step. */
export async function startRepl(o: ReplOptions): Promise<number> {
  let start: ReplStart;
  try {
    start = await prepareRepl(o);
  } catch (e) {
    // Nothing else holds them yet: the id is free now, not when the lease expires, and MCP servers stop.
    await Promise.allSettled([o.lease.release(), o.team.close()]);
    throw e;
  }
  const host = start.host;
  let exit: () => void = () => {};
  let repaint: () => void = () => {};
  // SIGTERM or a closed terminal: leave as a person would (cancel, save, stop the commands), then report the signal.
  const stopping = stopOnSignals((sig) => {
    host.stop(`stopped by ${sig}`);
    // The last frame shows the cancelled turn settled (its rows closed), not a spinner frozen mid-run.
    void host.settle(STOP_SETTLE_MS).then(() => setTimeout(exit, FINAL_FRAME_MS));
  });
  try {
    const frame = new LiveFrame();
    const handOver = { hide: () => frame.hide(), show: () => repaint() };
    const suspend = () => suspendToShell(handOver);
    const edit = (text: string) => editInEditor(text, handOver);
    host.editInEditor = edit;
    // The terminal's answer to adk's own kitty query (startup-keys.ts) decides; Ink asks only when adk did not.
    const kitty = await o.startupKeys?.kittyKeyboard();
    o.startupKeys?.handOver();
    const kittyKeyboard = kitty === undefined ? REPL_RENDER_OPTIONS.kittyKeyboard : { mode: kitty ? 'enabled' : 'disabled' } as const;
    const instance = render(<frame.Root><ReplRoot start={start} history={new InputHistory()} onExit={() => exit()} promptArmMs={o.promptArmMs} onSuspend={suspend} editInEditor={edit} /></frame.Root>, { ...REPL_RENDER_OPTIONS, kittyKeyboard, stdout: inkStdout(process.stdout) });
    frame.attach(instance);
    // Back from the shell or the editor: the live area is painted again under what they wrote.
    repaint = () => {
      frame.show();
      host.onChange?.();
    };
    exit = () => instance.unmount();
    const stopCollector = startIdleCollector();
    await instance.waitUntilExit().finally(stopCollector);
  } catch (e) {
    // The screen failed (a render error): the turn must not go on, or its commands outlive adk.
    host.stop(`the screen failed: ${(e as Error).message}`);
    await host.close().catch(() => {}); // the screen's error is the one to report
    stopping.dispose();
    throw e;
  }
  try {
    await host.close();
  } finally {
    stopping.dispose();
  }
  const signal = stopping.received();
  // After SIGHUP nobody can read it.
  if (signal !== 'SIGHUP') process.stdout.write(`Session ${host.conv.id} saved. Continue it with: adk resume ${host.conv.id}\n`);
  return signal ? signalExitCode(signal) : 0;
}

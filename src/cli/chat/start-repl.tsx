import { render } from 'ink';
import { useEffect, useState } from 'react';
import type { InterruptContext } from '../../core/index.js';
import type { AdkStores, SessionRecord } from '../../core/store/index.js';
import { REPL_RENDER_OPTIONS, ChatApp, type NewTranscriptItem } from '../../ui/index.js';
import { Conversation } from '../conversation.js';
import type { Team, TeamOptions } from '../team.js';
import { ChatHost } from './chat-host.js';
import { historyItems } from './history-items.js';
import { InputHistory } from './input-history.js';
import { handleCommand } from './slash-commands.js';

export interface ReplOptions {
  stores: AdkStores;
  team: Team;
  record?: SessionRecord;
  teamOptions: TeamOptions;
  demoNote?: string;
}

/** What the REPL opens with: the host of its conversation, the first transcript rows, the waiting questions. */
export interface ReplStart {
  host: ChatHost;
  initialItems: NewTranscriptItem[];
  initialInterrupts: InterruptContext[];
}

/** Opens (or creates) the session and builds what the REPL shows first. */
export async function prepareRepl(o: ReplOptions): Promise<ReplStart> {
  const conv = o.record ? Conversation.open(o.stores, o.team, o.record) : await Conversation.create(o.stores, o.team, { agentsFile: o.team.agentsFile });
  const host = new ChatHost(o.stores, conv, o.teamOptions);
  const items: NewTranscriptItem[] = [];
  if (o.demoNote) items.push({ kind: 'info', text: o.demoNote, tone: 'warning' });
  if (o.record) {
    items.push({ kind: 'info', text: `Resumed session ${o.record.id}: ${o.record.title || '(untitled)'}`, tone: 'success' });
    items.push(...historyItems(o.record.messages));
    if (o.record.status === 'cancelled' && o.record.checkpointId) {
      items.push({ kind: 'info', tone: 'warning', text: `The last run was cancelled at a safe point. Type /resume ${o.record.id} to continue it, or send a new message.` });
    }
  } else {
    items.push({ kind: 'info', tone: 'muted', text: `adk · ${o.team.agent.name} · session ${conv.id} · /help for commands` });
  }
  const pending = o.record?.status === 'interrupted' ? o.record.pendingInterrupts : [];
  const initialInterrupts: InterruptContext[] = pending.map((p) => ({
    id: p.id,
    address: p.address,
    info: { kind: p.kind, message: p.message, tool: p.tool, arguments: p.arguments },
  }));
  return { host, initialItems: items, initialInterrupts };
}

export interface ReplRootProps {
  start: ReplStart;
  history: InputHistory;
  onExit: () => void;
}

/** The app wired to its host: re-renders when the host's session, model or saved state changes. */
export function ReplRoot({ start: { host, initialItems, initialInterrupts }, history, onExit }: ReplRootProps) {
  const [, rerender] = useState(0);
  useEffect(() => {
    host.onChange = () => rerender((n) => n + 1);
    return () => void (host.onChange = undefined);
  }, [host]);
  const [savedHistory] = useState(() => history.load());
  return (
    <ChatApp
      runTurn={host.runTurn}
      answerInterrupts={host.answerInterrupts}
      onCommand={(name, args, ui) => handleCommand(host, host.stores, name, args, ui)}
      history={savedHistory}
      onHistoryAdd={(text) => history.add(text)}
      model={host.team.modelName}
      sessionId={host.conv.id}
      saved={host.saved}
      initialItems={initialItems}
      initialInterrupts={initialInterrupts}
      initialUsage={host.conv.record.usage}
      onExit={onExit}
    />
  );
}

/** Renders the REPL until the person exits; the session is saved at every step. */
export async function startRepl(o: ReplOptions): Promise<number> {
  const start = await prepareRepl(o);
  let exit: () => void = () => {};
  const instance = render(<ReplRoot start={start} history={new InputHistory()} onExit={() => exit()} />, REPL_RENDER_OPTIONS);
  exit = () => instance.unmount();
  await instance.waitUntilExit();
  await start.host.settle();
  await start.host.team.close();
  process.stdout.write(`Session ${start.host.conv.id} saved. Continue it with: adk resume ${start.host.conv.id}\n`);
  return 0;
}

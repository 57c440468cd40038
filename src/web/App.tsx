import { useCallback, useEffect, useReducer, useState } from 'react';
import { api, NeedsTokenError, token, watch, type AdkEvent, type PendingInterrupt, type SessionSummary } from './api.js';
import { InterruptCards } from './InterruptCards.js';
import { SessionList } from './SessionList.js';
import { apply, emptyView, fromHistory, type ViewState } from './transcript.js';
import { TranscriptView } from './TranscriptView.js';

type Action = { type: 'reset'; view: ViewState } | { type: 'event'; event: AdkEvent };
const reducer = (s: ViewState, a: Action): ViewState => (a.type === 'reset' ? a.view : apply(s, a.event));

const sessionFromHash = () => new URLSearchParams(location.hash.slice(1)).get('s') ?? undefined;

/** `adk serve`'s page: sessions on the left, the open one streaming on the right. A reload picks the run up where it is. */
export function App() {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [current, setCurrent] = useState<string | undefined>(sessionFromHash);
  const [view, dispatch] = useReducer(reducer, emptyView);
  const [pending, setPending] = useState<PendingInterrupt[]>([]);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState('');
  // Bumped when a token is given: everything is asked again with it.
  const [auth, setAuth] = useState(0);
  const [needsToken, setNeedsToken] = useState(false);
  const report = useCallback((e: Error) => (e instanceof NeedsTokenError ? setNeedsToken(true) : setProblem(e.message)), []);

  const refreshList = useCallback(() => void api.sessions().then(setSessions, report), [report, auth]);
  useEffect(refreshList, [refreshList]);

  // Open a session: its saved history, then the events of the turn under way and what follows.
  useEffect(() => {
    if (!current) return;
    let stop = () => {};
    let cancelled = false;
    void api.session(current).then(
      (s) => {
        if (cancelled) return;
        // A turn under way or waiting for a person is replayed from its first event: what it said so
        // far is not in the saved history yet.
        // Events the server no longer has (it restarted): the stopped turn's saved messages stand in.
        const replayable = s.lastEventId >= s.turnFrom;
        const open = (s.status === 'running' || s.status === 'interrupted') && replayable;
        const history = open ? { ...s, messages: s.messages.slice(0, lastUserIndex(s.messages) + 1) } : { ...s, messages: [...s.messages, ...(s.pendingTurn ?? [])] };
        dispatch({ type: 'reset', view: fromHistory(history) });
        setPending(s.status === 'interrupted' ? s.pending : []);
        stop = watch(
          current,
          open ? s.turnFrom - 1 : s.lastEventId,
          (e) => {
            dispatch({ type: 'event', event: e });
            if (e.type === 'session') setPending([]);
            if (e.type === 'interrupt') setPending(e.interrupts as PendingInterrupt[]);
            if (e.type === 'done') refreshList();
          },
          report,
        );
      },
      report,
    );
    return () => {
      cancelled = true;
      stop();
    };
  }, [current, refreshList, report, auth]);

  const open = (id: string) => {
    location.hash = `s=${id}`;
    setProblem('');
    setCurrent(id);
  };
  const send = async () => {
    const text = draft.trim();
    if (!text) return;
    let id = current;
    if (!id) {
      id = (await api.create()).id;
      open(id);
      refreshList();
    }
    setDraft('');
    api.send(id, text).catch(report);
  };

  return (
    <div className="app">
      <SessionList sessions={sessions} current={current} onOpen={open} onNew={() => void api.create().then((s) => (open(s.id), refreshList()), report)} />
      <main>
        <header className="breadcrumb" aria-label="breadcrumb">
          {view.running ? `⋯ ${view.path.join(' ▸ ') || 'working'}` : current ? `session ${current}` : 'adk'}
        </header>
        <TranscriptView items={view.items} />
        {pending.length && current ? (
          <InterruptCards
            pending={pending}
            onAnswer={(t) => (setPending([]), api.answer(current, t).catch(report))}
            onAlways={(id) => (setPending([]), api.always(current, id).catch(report))}
          />
        ) : null}
        {needsToken ? (
          <TokenForm
            onToken={(t) => {
              token.set(t);
              setNeedsToken(false);
              setProblem('');
              setAuth((n) => n + 1);
            }}
          />
        ) : null}
        {problem ? <div className="note error">{problem}</div> : null}
        <form
          className="composer"
          onSubmit={(e) => {
            e.preventDefault();
            void send().catch(report);
          }}
        >
          <textarea aria-label="message" value={draft} placeholder="Message" onChange={(e) => setDraft(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && !e.shiftKey && (e.preventDefault(), void send().catch(report))} />
          {view.running && current ? (
            <button type="button" onClick={() => void api.cancel(current).catch(report)}>
              Stop
            </button>
          ) : (
            <button type="submit" disabled={view.running}>
              Send
            </button>
          )}
        </form>
      </main>
    </div>
  );
}

function lastUserIndex(messages: Array<{ role: string; agentName?: string }>): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user' && !messages[i]!.agentName) return i;
  return messages.length;
}

/** Asks for the server's ADK_SERVE_TOKEN, kept for this tab only (sessionStorage). */
function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      className="card token"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onToken(value.trim());
      }}
    >
      <div className="card-title">This server needs its access token (ADK_SERVE_TOKEN).</div>
      <input aria-label="access token" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      <div className="buttons">
        <button className="approve" type="submit">
          Use token
        </button>
      </div>
    </form>
  );
}

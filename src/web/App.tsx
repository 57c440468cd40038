import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, NeedsTokenError, token, type SessionSummary, type Team } from './api.js';
import { toPart, toShown, type Attachment } from './attachments.js';
import { Composer } from './Composer.js';
import { InterruptCards } from './InterruptCards.js';
import { SessionList } from './SessionList.js';
import { TodoPanel } from './TodoPanel.js';
import { TokenForm } from './TokenForm.js';
import { TopBar } from './TopBar.js';
import { TranscriptView } from './TranscriptView.js';
import { useAutoscroll } from './useAutoscroll.js';
import { useSession } from './useSession.js';

const sessionFromHash = () => new URLSearchParams(location.hash.slice(1)).get('s') ?? undefined;

/** `adk serve`'s page: sessions beside (or, on a phone, behind) the open one, which streams live. */
export function App() {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [teams, setTeams] = useState<{ default: string; list: Team[] }>({ default: '', list: [] });
  const [team, setTeam] = useState('');
  const [current, setCurrent] = useState<string | undefined>(sessionFromHash);
  const [drawer, setDrawer] = useState(false);
  const [problem, setProblem] = useState('');
  // Bumped when a token is given: everything is asked again with it.
  const [auth, setAuth] = useState(0);
  const [needsToken, setNeedsToken] = useState(false);
  const report = useCallback((e: Error) => (e instanceof NeedsTokenError ? setNeedsToken(true) : setProblem(e.message)), []);

  const refreshList = useCallback(() => void api.sessions().then(setSessions, report), [report, auth]);
  useEffect(refreshList, [refreshList]);
  useEffect(() => {
    void api.agents().then((a) => setTeams({ default: a.default ?? '', list: Array.isArray(a.teams) ? a.teams : [] }), report);
  }, [report, auth]);
  const { view, pending, setPending, showSent } = useSession(current, refreshList, report, auth);
  const scroll = useAutoscroll<HTMLDivElement>([view.items, pending, view.todos], current);

  // The open session's team; before one is open, the one picked (or the file's default).
  const listed = sessions.find((s) => s.id === current);
  const openAgent = listed?.agent;
  const stopped = listed?.status === 'cancelled' && !!listed.resumable;
  const shownTeam = (current && openAgent) || team || teams.default;

  const open = (id: string | undefined) => {
    location.hash = id ? `s=${id}` : '';
    setProblem('');
    setDrawer(false);
    setCurrent(id);
  };
  const send = async (text: string, attachments: Attachment[]) => {
    // Shown at once, even before a new session exists: the turn's events do not repeat it.
    showSent(current, text, attachments.map(toShown));
    let id = current;
    if (!id) {
      id = (await api.create(shownTeam || undefined)).id;
      open(id);
      refreshList();
    }
    api.send(id, text, attachments.map(toPart)).catch(report);
  };
  const stop = useCallback(() => void (current && api.cancel(current).catch(report)), [current, report]);

  // Esc stops a running turn, wherever the focus is.
  useEffect(() => {
    if (!view.running) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && stop();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [view.running, stop]);

  const waitingCalls = useMemo(() => new Set(pending.map((p) => p.callId ?? '').filter(Boolean)), [pending]);

  return (
    <div className={drawer ? 'app drawer-open' : 'app'}>
      <SessionList sessions={sessions} current={current} open={drawer} onOpen={open} onNew={() => open(undefined)} />
      {drawer ? <div className="scrim" aria-hidden="true" onClick={() => setDrawer(false)} /> : null}
      <main>
        <TopBar
          teams={teams.list}
          team={shownTeam}
          onTeam={(t) => {
            // Another team is another conversation: the next message starts it.
            setTeam(t);
            if (current && t !== openAgent) open(undefined);
          }}
          path={view.path}
          running={view.running}
          drawerOpen={drawer}
          onDrawer={() => setDrawer((d) => !d)}
        />
        <div className="scroller" ref={scroll.ref} onScroll={scroll.onScroll}>
          {!current && !view.items.length ? <Welcome team={shownTeam} /> : null}
          <TranscriptView items={view.items} waitingCalls={waitingCalls} />
          {stopped && current && !view.running ? (
            <div className="card stopped" role="group" aria-label="stopped turn">
              <span>The turn was stopped where it was safe to. Continue it, or send a new message.</span>
              <button type="button" className="primary" onClick={() => void api.resume(current).catch(report)}>
                Continue
              </button>
            </div>
          ) : null}
          {pending.length && current ? (
            <InterruptCards
              pending={pending}
              onAnswer={(t) => (setPending([]), api.answer(current, t).catch(report))}
              onAlways={(id) => (setPending([]), api.always(current, id).catch(report))}
            />
          ) : null}
        </div>
        {scroll.pinned ? null : (
          <button type="button" className="jump" onClick={scroll.jump} aria-label="scroll to the newest output">
            ↓ New output
          </button>
        )}
        <TodoPanel todos={view.todos} />
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
        {problem ? (
          <div className="note error problem" role="alert">
            {problem}
          </div>
        ) : null}
        <Composer running={view.running && !!current} onSend={(text, attachments) => void send(text, attachments).catch(report)} onStop={stop} />
      </main>
    </div>
  );
}

function Welcome({ team }: { team: string }) {
  return (
    <div className="welcome">
      <h1>adk</h1>
      <p>{team ? `Ask the ${team} team anything.` : 'Ask anything.'} Enter sends, Shift-Enter starts a new line, Esc stops a turn. Drop, paste or attach images and PDFs.</p>
    </div>
  );
}

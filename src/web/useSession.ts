import { useCallback, useEffect, useReducer, useState } from 'react';
import { api, watch, type AdkEvent, type PendingInterrupt, type SavedMessage } from './api.js';
import { apply, emptyView, fromHistory, reset, sent, type ShownPart, type ViewState } from './transcript.js';

type Action = { type: 'reset'; view: ViewState } | { type: 'event'; event: AdkEvent; at: number } | { type: 'sent'; session: string | undefined; text: string; parts: ShownPart[] };

function reducer(s: ViewState, a: Action): ViewState {
  if (a.type === 'reset') return reset(s, a.view);
  if (a.type === 'sent') return sent(s, a.session, a.text, a.parts);
  return apply(s, a.event, a.at);
}

/**
 * The open session: its saved history, then the events of the turn under way and what follows,
 * live. A reload picks a running turn up where it is.
 */
export function useSession(current: string | undefined, onTurnEnd: () => void, report: (e: Error) => void, auth: number) {
  const [view, dispatch] = useReducer(reducer, emptyView);
  const [pending, setPending] = useState<PendingInterrupt[]>([]);

  useEffect(() => {
    if (!current) {
      dispatch({ type: 'reset', view: emptyView });
      setPending([]);
      return;
    }
    let stop = () => {};
    let cancelled = false;
    void api.session(current).then((s) => {
      if (cancelled) return;
      // A turn under way or waiting for a person is replayed from its first event: what it said so
      // far is not in the saved history yet. Events the server no longer has (it restarted): the
      // stopped turn's saved messages stand in.
      const replayable = s.lastEventId >= s.turnFrom;
      const open = (s.status === 'running' || s.status === 'interrupted') && replayable;
      const messages = open ? s.messages.slice(0, lastUserIndex(s.messages) + 1) : [...s.messages, ...(s.pendingTurn ?? [])];
      dispatch({ type: 'reset', view: fromHistory({ ...s, messages }) });
      setPending(s.status === 'interrupted' ? s.pending : []);
      stop = watch(
        current,
        open ? s.turnFrom - 1 : s.lastEventId,
        (e) => {
          dispatch({ type: 'event', event: e, at: Date.now() });
          if (e.type === 'session') setPending([]);
          if (e.type === 'interrupt') setPending(e.interrupts as PendingInterrupt[]);
          if (e.type === 'done') onTurnEnd();
        },
        report,
      );
    }, report);
    return () => {
      cancelled = true;
      stop();
    };
  }, [current, onTurnEnd, report, auth]);

  const showSent = useCallback((session: string | undefined, text: string, parts: ShownPart[] = []) => dispatch({ type: 'sent', session, text, parts }), []);
  return { view, pending, setPending, showSent };
}

function lastUserIndex(messages: SavedMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user' && !messages[i]!.agentName) return i;
  return messages.length;
}

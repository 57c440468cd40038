import type { LiveItem, NewTranscriptItem, TranscriptItem, ViewState } from './transcript.js';

/** A fresh id and the state that remembers it was used. */
export function takeId(state: ViewState): [string, ViewState] {
  return [`v${state.nextId}`, { ...state, nextId: state.nextId + 1 }];
}

/** Appends a finished item to the transcript. */
export function commit(state: ViewState, item: NewTranscriptItem): ViewState {
  const [id, next] = takeId(state);
  return { ...next, committed: [...next.committed, { ...item, id } as TranscriptItem] };
}

export function lastCommitted(state: ViewState): TranscriptItem | undefined {
  return state.committed[state.committed.length - 1];
}

export function replaceLive(state: ViewState, id: string, item: LiveItem | undefined): ViewState {
  const live = item ? state.live.map((x) => (x.id === id ? item : x)) : state.live.filter((x) => x.id !== id);
  return { ...state, live };
}

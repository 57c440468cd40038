import { ArgsView, argsSummary } from './ArgsView.js';
import type { Item } from './transcript.js';

type Tool = Extract<Item, { kind: 'tool' }>;
const GLYPH = { running: '⋯', done: '✓', error: '✗' } as const;

/** A tool call: one line (status, name, its main argument, how long it took), opened for the arguments and the result. */
export function ToolRow({ item, waiting }: { item: Tool; waiting: boolean }) {
  const status = waiting ? 'waiting for approval' : item.status === 'running' ? 'running' : item.status === 'done' ? 'done' : 'failed';
  const took = item.startedAt !== undefined && item.endedAt !== undefined ? formatDuration(item.endedAt - item.startedAt) : '';
  return (
    <details className={`tool ${item.status}${waiting ? ' waiting' : ''}`} data-call={item.id}>
      <summary>
        <span className="glyph" aria-hidden="true">
          {waiting ? '?' : GLYPH[item.status]}
        </span>
        <span className="visually-hidden">{status}: </span>
        <b className="tool-name">{item.name}</b>
        <span className="tool-arg">{argsSummary(item.args)}</span>
        {took ? <span className="duration">{took}</span> : null}
      </summary>
      <div className="tool-body">
        <ArgsView args={item.args} />
        {item.result !== undefined ? <pre className="result">{item.result}</pre> : null}
      </div>
    </details>
  );
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

import { useState } from 'react';
import type { PendingInterrupt } from './api.js';

/** What the run waits for: approve / always allow / reject (with a reason) / edit the arguments, answer a question, review a plan. */
export function InterruptCards({ pending, onAnswer, onAlways }: { pending: PendingInterrupt[]; onAnswer: (targets: Record<string, unknown>) => void; onAlways: (id: string) => void }) {
  return (
    <div className="interrupts">
      {pending.map((p) => (
        <Card key={p.id} p={p} onAnswer={(data) => onAnswer({ [p.id]: data })} onAlways={() => onAlways(p.id)} />
      ))}
    </div>
  );
}

function Card({ p, onAnswer, onAlways }: { p: PendingInterrupt; onAnswer: (data: unknown) => void; onAlways: () => void }) {
  const [text, setText] = useState('');
  const [args, setArgs] = useState(() => JSON.stringify(p.arguments ?? {}, null, 2));
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState('');
  if (p.kind === 'approval') {
    return (
      <div className="card approval" data-interrupt={p.id}>
        <div className="card-title">
          Run <b>{p.tool}</b>?
        </div>
        {editing ? <textarea aria-label="arguments" value={args} onChange={(e) => setArgs(e.target.value)} rows={6} /> : <pre>{JSON.stringify(p.arguments, null, 2)}</pre>}
        {problem ? <div className="note error">{problem}</div> : null}
        <input aria-label="reason" placeholder="reason (for reject)" value={text} onChange={(e) => setText(e.target.value)} />
        <div className="buttons">
          <button
            className="approve"
            onClick={() => {
              if (!editing) return onAnswer({ approved: true });
              try {
                onAnswer({ approved: true, arguments: JSON.parse(args) });
              } catch (e) {
                setProblem(`not JSON: ${(e as Error).message}`);
              }
            }}
          >
            Approve
          </button>
          <button title={`run ${p.tool} without asking for the rest of this session`} onClick={onAlways}>
            Always allow {p.tool}
          </button>
          <button onClick={() => setEditing((x) => !x)}>{editing ? 'Keep arguments' : 'Edit arguments'}</button>
          <button className="reject" onClick={() => onAnswer(text ? { approved: false, reason: text } : { approved: false })}>
            Reject
          </button>
        </div>
      </div>
    );
  }
  if (p.kind === 'plan_review') {
    return (
      <div className="card plan" data-interrupt={p.id}>
        <div className="card-title">{p.message || 'Review the plan'}</div>
        <ol>
          {(p.plan ?? []).map((s, i) => (
            <li key={i}>{s}</li>
          ))}
        </ol>
        <input aria-label="feedback" placeholder="what to change" value={text} onChange={(e) => setText(e.target.value)} />
        <div className="buttons">
          <button className="approve" onClick={() => onAnswer({ accept: true })}>
            Accept plan
          </button>
          <button onClick={() => onAnswer({ accept: false, feedback: text || 'Please revise the plan.' })}>Ask for changes</button>
        </div>
      </div>
    );
  }
  return (
    <div className="card input" data-interrupt={p.id}>
      <div className="card-title">{p.message || 'The agent asks'}</div>
      <input aria-label="answer" value={text} onChange={(e) => setText(e.target.value)} />
      <div className="buttons">
        <button className="approve" onClick={() => onAnswer(text)}>
          Answer
        </button>
      </div>
    </div>
  );
}

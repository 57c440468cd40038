import { useState } from 'react';
import type { PendingInterrupt } from './api.js';
import { ArgsView } from './ArgsView.js';
import { DiffView } from './DiffView.js';

type Answer = (data: unknown) => void;

/** What the run waits for: approve / always allow / reject (with a reason) / edit the arguments, answer a question, review a plan. */
export function InterruptCards({ pending, onAnswer, onAlways }: { pending: PendingInterrupt[]; onAnswer: (targets: Record<string, unknown>) => void; onAlways: (id: string) => void }) {
  return (
    <section className="interrupts" aria-label="waiting for you">
      {pending.map((p) => {
        const answer: Answer = (data) => onAnswer({ [p.id]: data });
        if (p.kind === 'approval') return <ApprovalCard key={p.id} p={p} onAnswer={answer} onAlways={() => onAlways(p.id)} />;
        if (p.kind === 'plan_review') return <PlanCard key={p.id} p={p} onAnswer={answer} />;
        if (p.kind === 'budget' && p.budget) return <BudgetCard key={p.id} p={p} budget={p.budget} onAnswer={answer} />;
        return <QuestionCard key={p.id} p={p} onAnswer={answer} />;
      })}
    </section>
  );
}

/** A tool call to approve: the diff it would write when the server sends one, else its arguments, readable. */
function ApprovalCard({ p, onAnswer, onAlways }: { p: PendingInterrupt; onAnswer: Answer; onAlways: () => void }) {
  const [reason, setReason] = useState('');
  const [args, setArgs] = useState(() => JSON.stringify(p.arguments ?? {}, null, 2));
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState('');
  const approve = () => {
    if (!editing) return onAnswer({ approved: true });
    try {
      onAnswer({ approved: true, arguments: JSON.parse(args) });
    } catch (e) {
      setProblem(`not JSON: ${(e as Error).message}`);
    }
  };
  return (
    <div className="card approval" data-interrupt={p.id} role="group" aria-label={`approve ${p.tool ?? 'the call'}`}>
      <div className="card-title">
        Run <b>{p.tool}</b>?
      </div>
      {editing ? (
        <textarea aria-label="arguments" value={args} onChange={(e) => setArgs(e.target.value)} rows={8} />
      ) : p.diff ? (
        <>
          <DiffView diff={p.diff} />
          <details className="card-args">
            <summary>Arguments</summary>
            <ArgsView args={p.arguments} />
          </details>
        </>
      ) : (
        <ArgsView args={p.arguments} />
      )}
      {problem ? (
        <div className="note error" role="alert">
          {problem}
        </div>
      ) : null}
      <input aria-label="reason" placeholder="reason (for reject)" value={reason} onChange={(e) => setReason(e.target.value)} />
      <div className="buttons">
        <button type="button" className="primary" onClick={approve}>
          Approve
        </button>
        {p.alwaysAsks ? null : (
          <button type="button" title={`run ${p.tool} without asking for the rest of this session`} onClick={onAlways}>
            Always allow {p.tool}
          </button>
        )}
        <button type="button" onClick={() => setEditing((x) => !x)}>
          {editing ? 'Keep arguments' : 'Edit arguments'}
        </button>
        <button type="button" className="danger" onClick={() => onAnswer(reason ? { approved: false, reason } : { approved: false })}>
          Reject
        </button>
      </div>
    </div>
  );
}

function PlanCard({ p, onAnswer }: { p: PendingInterrupt; onAnswer: Answer }) {
  const [feedback, setFeedback] = useState('');
  return (
    <div className="card plan" data-interrupt={p.id} role="group" aria-label="review the plan">
      <div className="card-title">{p.message || 'Review the plan'}</div>
      <ol>
        {(p.plan ?? []).map((s, i) => (
          <li key={i}>{s}</li>
        ))}
      </ol>
      <input aria-label="feedback" placeholder="what to change" value={feedback} onChange={(e) => setFeedback(e.target.value)} />
      <div className="buttons">
        <button type="button" className="primary" onClick={() => onAnswer({ accept: true })}>
          Accept plan
        </button>
        <button type="button" onClick={() => onAnswer({ accept: false, feedback: feedback || 'Please revise the plan.' })}>
          Ask for changes
        </button>
      </div>
    </div>
  );
}

/** A budget the run reached: raise it (twice the limit unless another figure is typed) and go on, or stop the run here. */
function BudgetCard({ p, budget, onAnswer }: { p: PendingInterrupt; budget: NonNullable<PendingInterrupt['budget']>; onAnswer: Answer }) {
  const dollars = budget.name === 'max_cost';
  const figure = (n: number) => (dollars ? `$${n.toFixed(2)}` : String(n));
  const [limit, setLimit] = useState(() => String(dollars ? Math.round(budget.limit * 200) / 100 : Math.max(1, Math.ceil(budget.limit * 2))));
  const [problem, setProblem] = useState('');
  const raise = () => {
    const n = Number(limit.replace(/^\$/, ''));
    if (!Number.isFinite(n) || n <= budget.limit || (!dollars && !Number.isInteger(n))) return setProblem(`give a ${dollars ? 'figure' : 'whole number'} above ${figure(budget.limit)}`);
    onAnswer({ raise: { [budget.name]: n } });
  };
  return (
    <form
      className="card budget"
      data-interrupt={p.id}
      aria-label="budget reached"
      onSubmit={(e) => {
        e.preventDefault();
        raise();
      }}
    >
      <div className="card-title">
        Budget reached: <b>{budget.name}</b> ({figure(budget.spent)} spent of {figure(budget.limit)})
      </div>
      <input aria-label="new limit" value={limit} onChange={(e) => setLimit(e.target.value)} />
      {problem ? (
        <div className="note error" role="alert">
          {problem}
        </div>
      ) : null}
      <div className="buttons">
        <button type="submit" className="primary">
          Raise and go on
        </button>
        <button type="button" className="danger" onClick={() => onAnswer({ stop: true })}>
          Stop here
        </button>
      </div>
    </form>
  );
}

function QuestionCard({ p, onAnswer }: { p: PendingInterrupt; onAnswer: Answer }) {
  const [text, setText] = useState('');
  return (
    <form
      className="card input"
      data-interrupt={p.id}
      aria-label="the agent asks"
      onSubmit={(e) => {
        e.preventDefault();
        onAnswer(text);
      }}
    >
      <div className="card-title">{p.message || 'The agent asks'}</div>
      <input aria-label="answer" value={text} onChange={(e) => setText(e.target.value)} />
      <div className="buttons">
        <button type="submit" className="primary">
          Answer
        </button>
      </div>
    </form>
  );
}

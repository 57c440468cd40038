import { memo, type MouseEvent } from 'react';
import { renderMarkdown } from './markdown.js';
import type { Item } from './transcript.js';

type Assistant = Extract<Item, { kind: 'assistant' }>;

/** An agent's answer: its reasoning folded away, its markdown rendered; code blocks' Copy buttons work. */
export const AssistantRow = memo(function AssistantRow({ item }: { item: Assistant }) {
  return (
    <article className={item.done ? 'assistant' : 'assistant streaming'} data-lane={item.lane} aria-label={`${item.agent || 'agent'} says`}>
      <div className="agent">{item.agent}</div>
      {item.reasoning ? (
        <details className="reasoning">
          <summary>{item.done || item.text ? 'Reasoning' : 'Thinking…'}</summary>
          <div className="reasoning-text">{item.reasoning}</div>
        </details>
      ) : null}
      {item.text || !item.done ? <div className="markdown" onClick={copyCode} dangerouslySetInnerHTML={{ __html: renderMarkdown(item.text) }} /> : null}
    </article>
  );
});

/** The markdown is HTML (no React handlers inside): one listener finds the code of the button clicked. */
function copyCode(e: MouseEvent<HTMLDivElement>) {
  const button = (e.target as HTMLElement).closest('button.copy');
  const code = button?.closest('.code-block')?.querySelector('code')?.textContent;
  if (!button || code == null) return;
  const done = (label: string) => {
    button.textContent = label;
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  };
  navigator.clipboard?.writeText(code).then(
    () => done('Copied'),
    () => done('Copy failed'),
  ) ?? done('Copy failed');
}

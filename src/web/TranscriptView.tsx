import { renderMarkdown } from './markdown.js';
import type { Item } from './transcript.js';

/** The conversation: the person's messages, streamed markdown per agent (parallel lanes side by side), tool rows. */
export function TranscriptView({ items }: { items: Item[] }) {
  return (
    <div className="transcript">
      {items.map((item, i) => {
        switch (item.kind) {
          case 'user':
            return (
              <div key={i} className="user">
                {item.text}
              </div>
            );
          case 'assistant':
            return (
              <div key={i} className={item.done ? 'assistant' : 'assistant streaming'} data-lane={item.lane}>
                <div className="agent">● {item.agent}</div>
                <div className="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(item.text) }} />
              </div>
            );
          case 'tool':
            return (
              <div key={i} className={`tool ${item.status}`} data-call={item.id}>
                <span className="glyph">{item.status === 'running' ? '⋯' : item.status === 'done' ? '✓' : '✗'}</span> <b>{item.name}</b> <code>{JSON.stringify(item.args)}</code>
                {item.result !== undefined ? <pre className="result">{item.result}</pre> : null}
              </div>
            );
          case 'note':
            return (
              <div key={i} className={`note ${item.tone}`}>
                {item.text}
              </div>
            );
        }
      })}
    </div>
  );
}

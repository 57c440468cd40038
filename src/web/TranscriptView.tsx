import { PartChips } from './Attachments.js';
import { AssistantRow } from './AssistantRow.js';
import { ToolRow } from './ToolRow.js';
import type { Item } from './transcript.js';

/** The conversation: the person's messages, each agent's streamed answer, tool rows, notes. */
export function TranscriptView({ items, waitingCalls }: { items: Item[]; waitingCalls: ReadonlySet<string> }) {
  return (
    <div className="transcript" role="log" aria-label="conversation" aria-live="polite">
      {items.map((item, i) => {
        switch (item.kind) {
          case 'user':
            return (
              <div key={i} className={item.local ? 'user local' : 'user'} aria-label="you said">
                {item.text}
                {item.parts ? <PartChips parts={item.parts} sent /> : null}
              </div>
            );
          case 'assistant':
            return <AssistantRow key={i} item={item} />;
          case 'tool':
            return <ToolRow key={i} item={item} waiting={waitingCalls.has(item.id)} />;
          case 'note':
            return (
              <div key={i} className={`note ${item.tone}`} role={item.tone === 'error' ? 'alert' : undefined}>
                {item.text}
              </div>
            );
        }
      })}
    </div>
  );
}

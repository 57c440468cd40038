import { useState } from 'react';
import { preview, type Attachment } from './attachments.js';
import { AttachButton, PartChips } from './Attachments.js';
import { useAttachments } from './useAttachments.js';

/**
 * The message box: Enter sends, Shift-Enter starts a new line; Stop (or Esc, see App) ends a running
 * turn. Images and PDFs dropped on the page, pasted or picked show as chips above it.
 */
export function Composer({ running, onSend, onStop }: { running: boolean; onSend: (text: string, attachments: Attachment[]) => void; onStop: () => void }) {
  const [draft, setDraft] = useState('');
  const files = useAttachments();
  const ready = !!draft.trim() || files.items.length > 0;
  const send = () => {
    if (!ready || running) return;
    const text = draft.trim();
    setDraft('');
    onSend(text, files.take());
  };
  return (
    <form
      className={files.dragging ? 'composer dragging' : 'composer'}
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      {files.dragging ? (
        <div className="drop-hint" aria-hidden="true">
          Drop images or PDFs to attach them
        </div>
      ) : null}
      <PartChips parts={files.items.map(preview)} onRemove={(i) => files.remove(files.items[i]!.id)} />
      {files.refused.length ? (
        <div className="note error refused" role="alert">
          {files.refused.map((r) => (
            <div key={r}>{r} (not attached)</div>
          ))}
        </div>
      ) : null}
      <div className="composer-row">
        <AttachButton onFiles={files.add} />
        <textarea
          aria-label="message"
          value={draft}
          rows={2}
          placeholder={running ? 'Working… (Esc stops)' : 'Message (Enter sends, Shift-Enter for a new line)'}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        {running ? (
          <button type="button" className="stop" onClick={onStop} aria-keyshortcuts="Escape">
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!ready}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}

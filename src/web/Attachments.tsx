import { ACCEPT, formatSize, kindOf, thumbnailOf } from './attachments.js';
import type { ShownPart } from './transcript.js';

// Drawn, not emoji: a system without an emoji font shows boxes.
const PATHS = {
  clip: 'M21 12.5l-8.4 8.4a5.5 5.5 0 0 1-7.8-7.8l8.5-8.5a3.7 3.7 0 0 1 5.2 5.2l-8.5 8.5a1.8 1.8 0 0 1-2.6-2.6L15.2 8',
  image: 'M4 5h16v14H4z M4 16l5-5 4 4 3-3 4 4 M15 9.5a1 1 0 1 0 0-.01',
  file: 'M6 3h8l4 4v14H6z M14 3v4h4 M9 12h6 M9 16h6',
};
function Icon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg className="icon-svg" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={PATHS[name]} />
    </svg>
  );
}

/** The paper-clip button: a labelled file input (the label is what shows and takes the focus ring). */
export function AttachButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  return (
    <label className="attach" title="Attach images or PDFs (or drop or paste them)">
      <input
        type="file"
        multiple
        accept={ACCEPT}
        className="visually-hidden"
        aria-label="attach images or PDFs"
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          // The same file can be picked again after it was removed.
          e.target.value = '';
        }}
      />
      <Icon name="clip" />
    </label>
  );
}

/**
 * Images and PDFs as chips: name, kind, size, and for an image its thumbnail when the page has its
 * bytes. `onRemove`: each chip has a remove button (the composer's, before sending).
 */
export function PartChips({ parts, onRemove, sent }: { parts: Array<ShownPart & { id?: number }>; onRemove?: (index: number) => void; sent?: boolean }) {
  if (!parts.length) return null;
  return (
    <ul className={sent ? 'chips sent' : 'chips'} aria-label="attachments">
      {parts.map((p, i) => {
        const name = p.name ?? p.mimeType;
        const thumb = p.type === 'image' ? thumbnailOf(p) : undefined;
        return (
          <li key={p.id ?? i} className={`chip ${p.type}`}>
            {/* In the composer the name follows at once; on a sent message the picture is the content. */}
            {thumb ? <img src={thumb} alt={sent ? name : ''} /> : <Icon name={p.type} />}
            <span className="chip-name" title={name}>
              {name}
            </span>
            <span className="chip-meta">
              {' '}
              {kindOf(p)} · {formatSize(p.size)}
            </span>
            {onRemove ? (
              <button type="button" className="chip-remove" aria-label={`remove ${name}`} onClick={() => onRemove(i)}>
                ×
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { overLimits, readAttachment, type Attachment } from './attachments.js';

const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');

/**
 * The composer's attachments: files dropped anywhere on the page, pasted (clipboard files) or picked
 * with the attach button. A refused file is named in `refused` (until the next change) and not kept.
 */
export function useAttachments() {
  const [items, setItems] = useState<Attachment[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  // What is attached now, for the limits of the next add; adds run one after another, in order.
  const current = useRef<Attachment[]>([]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const set = (next: Attachment[]) => {
    current.current = next;
    setItems(next);
  };

  const add = useCallback((files: readonly File[]) => {
    if (!files.length) return;
    queue.current = queue.current.then(async () => {
      const read = await Promise.all(files.map((f) => readAttachment(f).catch((e: Error) => `${f.name}: ${e.message}`)));
      const taken = [...current.current];
      const problems: string[] = [];
      for (const r of read) {
        const why = typeof r === 'string' ? r : overLimits(taken, r);
        if (why) problems.push(why);
        else taken.push(r as Attachment);
      }
      set(taken);
      setRefused(problems);
    });
  }, []);

  const remove = useCallback((id: number) => {
    set(current.current.filter((a) => a.id !== id));
    setRefused([]);
  }, []);

  /** The attachments, for sending; the composer starts empty again. */
  const take = useCallback((): Attachment[] => {
    const all = current.current;
    set([]);
    setRefused([]);
    return all;
  }, []);

  // Files dropped or pasted anywhere on the page are the composer's: there is one message box.
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    // relatedTarget null: the drag left the window (not just one element for another).
    const leave = (e: DragEvent) => e.relatedTarget === null && setDragging(false);
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      add([...e.dataTransfer!.files]);
    };
    const paste = (e: ClipboardEvent) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (!files.length) return;
      // A pasted screenshot is the file, not its name as text.
      e.preventDefault();
      add(files);
    };
    window.addEventListener('dragenter', over);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    window.addEventListener('paste', paste);
    return () => {
      window.removeEventListener('dragenter', over);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      window.removeEventListener('paste', paste);
    };
  }, [add]);

  return { items, refused, dragging, add, remove, take };
}

import { isAbsolute } from 'node:path';
import { readContentPart, isPartPath } from '../../core/schema/read-part.js';
import type { ContentPart } from '../../core/schema/content-part.js';
import { locate } from '../../core/tools/workspace.js';

/**
 * Images and PDFs the person attached by typing: `@shot.png` (a workspace file) or a pasted path
 * (`/tmp/Screenshot 1.png`, quoted or with escaped spaces as terminals paste them). The person chose
 * them, so a pasted path may lie outside the workspace; a mention is still located inside it.
 */
export async function attachedParts(text: string, workspace: string): Promise<ContentPart[]> {
  const paths = new Set<string>();
  for (const m of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const path = m[1]!.replace(/[.,;:!?)]+$/, '');
    if (isPartPath(path)) paths.add((await locate(workspace, path)).real);
  }
  for (const path of pastedPaths(text)) if (isPartPath(path)) paths.add(path);
  const parts: ContentPart[] = [];
  for (const p of paths) parts.push(await readContentPart(p));
  return parts;
}

/** Absolute paths as a terminal pastes them: 'quoted', "quoted", or with `\ ` for spaces. */
export function pastedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/'(\/[^']+)'|"(\/[^"]+)"|(?:^|\s)((?:\/(?:\\ |[^\s])+)+)/g)) {
    const raw = m[1] ?? m[2] ?? m[3]!.replace(/\\ /g, ' ');
    if (isAbsolute(raw)) out.push(raw);
  }
  return out;
}

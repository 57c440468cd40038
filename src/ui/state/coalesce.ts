import type { ViewAction } from './actions.js';

/** Merges runs of deltas of the same stream, so a frame's worth of tokens is one reducer step. */
export function coalesceViewActions(actions: ViewAction[]): ViewAction[] {
  const out: ViewAction[] = [];
  for (const a of actions) {
    const prev = out[out.length - 1];
    if (a.type === 'streamDelta' && prev?.type === 'streamDelta' && prev.streamId === a.streamId && sameShape(prev, a)) {
      out[out.length - 1] = {
        type: 'streamDelta',
        streamId: a.streamId,
        content: join(prev.content, a.content),
        reasoning: join(prev.reasoning, a.reasoning),
        toolNames: prev.toolNames || a.toolNames ? [...(prev.toolNames ?? []), ...(a.toolNames ?? [])] : undefined,
        ...(a.at !== undefined ? { at: a.at } : {}),
      };
      continue;
    }
    out.push(a);
  }
  return out;
}

function join(a?: string, b?: string): string | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? '') + (b ?? '');
}

type Delta = Extract<ViewAction, { type: 'streamDelta' }>;

/** Only like deltas merge, so reasoning never jumps ahead of content it followed. */
function sameShape(a: Delta, b: Delta): boolean {
  return (a.content === undefined) === (b.content === undefined) && (a.reasoning === undefined) === (b.reasoning === undefined);
}

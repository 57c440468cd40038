import { didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import { a2aRefSchema } from './schema.js';
import { checkObject, describe, isRecord } from './shape-check.js';
import type { A2aAgentRef } from './types.js';

const FORM = '{ a2a: https://host/agent, name?, description? } (name and description default from the agent card)';

/** `{ a2a: https://…, name?, description? }` in `sub_agents:` or `tools:`: an http(s) URL, a valid name. */
export function checkA2aRef(entry: unknown, p: PathSeg[], c: ProblemCollector): A2aAgentRef | undefined {
  if (!isRecord(entry) || !('a2a' in entry)) {
    c.report(p, `expected an agent name or a remote A2A agent, got ${describe(entry)}`, { hint: FORM });
    return undefined;
  }
  const known = Object.keys(a2aRefSchema.shape);
  const t = checkObject(a2aRefSchema, entry, p, c, (key) => ({ message: `unknown key '${key}' in an A2A agent${didYouMean(key, known)}`, hint: FORM }));
  if (!t?.a2a) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(t.a2a);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    c.report([...p, 'a2a'], `'${t.a2a}' is not an http(s) URL`, { hint: FORM });
    return undefined;
  }
  const ref: A2aAgentRef = { url: t.a2a, pos: c.locate(p) };
  if (t.name) ref.name = t.name;
  if (t.description) ref.description = t.description;
  return ref;
}

/** The remote A2A agents an agent lists among `sub_agents:` (the mappings), checked. */
export function checkA2aSubAgents(name: string, list: ReadonlyArray<string | Record<string, unknown>> | undefined, c: ProblemCollector): A2aAgentRef[] {
  const out: A2aAgentRef[] = [];
  (list ?? []).forEach((entry, i) => {
    if (typeof entry === 'string') return;
    const ref = checkA2aRef(entry, ['agents', name, 'sub_agents', i], c);
    if (ref) out.push(ref);
  });
  return out;
}

// The floor: the same work as bare async generators, with no runtime in between.
import { Script, pieces, sleep, textReply, toolReply } from '../fakes/script.mjs';

export const name = 'baseline';

async function* model(script) {
  const r = script.take();
  if (r.delayMs) await sleep(r.delayMs);
  for (const content of r.chunks ?? []) yield { content };
  if (r.toolCall) yield { toolCall: r.toolCall };
}

/** One model call: streams its text out through `onText`, returns the tool call if any. */
async function turn(script, onText) {
  let call;
  for await (const c of model(script)) {
    if (c.content) onText(c.content);
    if (c.toolCall) call = c.toolCall;
  }
  return call;
}

export function stream(chunks) {
  const script = new Script(() => textReply(pieces(chunks)));
  return async () => {
    script.reset();
    let n = 0;
    await turn(script, (t) => (n += t.length));
    return n;
  };
}

export function toolLoop(turns) {
  const script = new Script((call) => (call < turns ? toolReply('noop') : textReply(['done'])));
  const tools = { noop: async () => 'ok' };
  return async () => {
    script.reset();
    const messages = [{ role: 'user', content: 'go' }];
    let n = 0;
    for (;;) {
      const call = await turn(script, (t) => (n += t.length));
      if (!call) break;
      messages.push({ role: 'assistant', toolCall: call }, { role: 'tool', content: await tools[call.name](call.args) });
    }
    return n;
  };
}

export function transfer(chunks) {
  const a = new Script(() => toolReply('transfer', { to: 'B' }));
  const b = new Script(() => textReply(pieces(chunks)));
  const agents = { B: b };
  return async () => {
    let n = 0;
    const onText = (t) => (n += t.length);
    const call = await turn(a, onText);
    await turn(agents[call.args.to], onText);
    return n;
  };
}

export function parallel(children, delayMs) {
  const scripts = Array.from({ length: children }, () => new Script(() => ({ chunks: ['done'], delayMs })));
  return async () => {
    let n = 0;
    await Promise.all(scripts.map((s) => turn(s, (t) => (n += t.length))));
    return n;
  };
}

/** The same event count as bare objects kept in one history array. */
export function session(events) {
  const turns = Math.ceil(events / 2);
  return async () => {
    const script = new Script((call) => (call < turns ? toolReply('noop', {}, `call_${call}`) : textReply(['done'])));
    const history = [{ role: 'user', content: 'go' }];
    let n = 0;
    for (;;) {
      const call = await turn(script, () => {});
      n++;
      if (!call) break;
      history.push({ role: 'assistant', toolCall: call });
      history.push({ role: 'tool', toolCallId: call.id, content: 'ok' });
      n++;
    }
    return n;
  };
}

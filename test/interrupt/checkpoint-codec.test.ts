import { describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '../../src/core/tools/tool.js';
import { carryCheckpoint, collect, errorsOf, interruptOf, loadRuntime, type Runtime } from './helpers.js';

// Issue 29 item 8: checkpoints keep what plain JSON loses. Session values and tool state holding a
// Date, a Map, a Set, a BigInt, a Uint8Array and an instance of a registered class come back as
// themselves when another process (fresh modules, a fresh store) resumes the run (Eino: schema.RegisterName).

class Money {
  constructor(
    readonly cents: bigint,
    readonly currency: string,
  ) {}
  format(): string {
    return `${this.currency} ${(Number(this.cents) / 100).toFixed(2)}`;
  }
}

/** Registers Money with the runtime (every process that writes or reads such a checkpoint does). */
function registerMoney(rt: Runtime): void {
  // Guarded: before the codec existed there was nothing to register with.
  (rt as { registerCheckpointType?: Runtime['registerCheckpointType'] }).registerCheckpointType?.('Money', {
    ctor: Money,
    encode: (m: Money) => ({ cents: m.cents, currency: m.currency }),
    decode: (d: any) => new Money(d.cents, d.currency),
  });
}

const when = new Date('2024-05-06T07:08:09.123Z');

/** Interrupts on its first call after storing typed values; on resume records what it sees. */
function stashTool(seen: Array<{ values: Record<string, unknown>; state: unknown }>, values: () => Record<string, unknown>): Tool {
  return {
    name: 'stash',
    description: 'stores values, then asks a person',
    parameters: { type: 'object', properties: {} },
    execute(_args: unknown, ctx: ToolContext) {
      if (ctx.resume.isResumeTarget) {
        seen.push({ values: { ...ctx.sessionValues }, state: ctx.resume.state });
        return 'done';
      }
      Object.assign(ctx.sessionValues, values());
      return ctx.interrupt({ kind: 'custom', message: 'ok?' }, { since: when, tags: new Set(['a', 'b']), nested: [{ at: when, bytes: new Uint8Array([0, 255]) }] });
    },
  };
}

async function interruptAndResume(values: () => Record<string, unknown>) {
  const seen: Array<{ values: Record<string, unknown>; state: unknown }> = [];
  const script = (rt: Runtime, steps: any[]) => new rt.ChatModelAgent({ name: 'a', description: 'a', model: new rt.ScriptedChatModel(steps), tools: [stashTool(seen, values)] });

  const rt1 = await loadRuntime();
  registerMoney(rt1);
  const store1 = new rt1.InMemoryCheckpointStore();
  const agent1 = script(rt1, [{ content: '', toolCalls: [{ name: 'stash', arguments: {}, id: 'call_1' }] }]);
  const events1 = await collect(new rt1.Runner({ agent: agent1, checkpointStore: store1 }).query('go', { checkpointId: 'cp' }));
  expect(errorsOf(events1).map((e) => e.message)).toEqual([]);
  const point = interruptOf(events1).contexts[0];

  // Another process: fresh modules (its own registry), a fresh store holding only the text.
  const rt2 = await loadRuntime();
  registerMoney(rt2);
  const agent2 = script(rt2, [{ content: 'finished' }]);
  const events2 = await collect(new rt2.Runner({ agent: agent2, checkpointStore: carryCheckpoint(store1, 'cp', rt2) }).resume('cp', { targets: { [point.id]: 'yes' } }));
  expect(errorsOf(events2).map((e) => e.message)).toEqual([]);
  expect(seen).toHaveLength(1);
  return { seen: seen[0]!, text: store1.data.get('cp')! };
}

describe('checkpoint codec (issue 29 item 8)', () => {
  it('a Date in session values survives a resume in another process', async () => {
    const { seen } = await interruptAndResume(() => ({ due: when }));
    expect(seen.values.due).toBeInstanceOf(Date);
    expect((seen.values.due as Date).toISOString()).toBe(when.toISOString());
  });

  it('Date, Map, Set, BigInt, Uint8Array and a registered class, nested in each other, survive in session values and tool state', async () => {
    const values = () => ({
      due: when,
      prices: new Map<string, unknown>([
        ['tea', new Money(350n, 'EUR')],
        ['when', { at: when, ids: new Set([1n, 2n]) }],
      ]),
      byDate: new Map([[when, 'a date key']]),
      tags: new Set(['x', 'y']),
      big: 12345678901234567890n,
      bytes: new Uint8Array([1, 2, 3, 250]),
      wallet: new Money(999n, 'USD'),
      plain: { list: [when, new Set([new Money(1n, 'GBP')])], $adk: 'a key that looks like a tag' },
    });
    const { seen, text } = await interruptAndResume(values);
    const v = seen.values as ReturnType<typeof values>;
    expect(v.due).toEqual(when);
    expect(v.prices).toBeInstanceOf(Map);
    expect(v.prices.get('tea')).toBeInstanceOf(Money);
    expect((v.prices.get('tea') as Money).format()).toBe('EUR 3.50');
    expect(v.prices.get('when')).toEqual({ at: when, ids: new Set([1n, 2n]) });
    expect([...v.byDate.keys()][0]).toEqual(when);
    expect(v.tags).toEqual(new Set(['x', 'y']));
    expect(v.big).toBe(12345678901234567890n);
    expect(v.bytes).toEqual(new Uint8Array([1, 2, 3, 250]));
    expect(v.wallet).toBeInstanceOf(Money);
    expect(v.wallet.cents).toBe(999n);
    expect(v.plain.list[0]).toEqual(when);
    expect([...(v.plain.list[1] as Set<Money>)][0]).toBeInstanceOf(Money);
    expect(v.plain.$adk).toBe('a key that looks like a tag');
    // The tool's own saved state, too.
    expect(seen.state).toEqual({ since: when, tags: new Set(['a', 'b']), nested: [{ at: when, bytes: new Uint8Array([0, 255]) }] });
    // Still JSON, readable by anything that reads JSON.
    expect(() => JSON.parse(text)).not.toThrow();
  });

  it('a checkpoint holding a type this process has not registered is refused with a clear CheckpointError', async () => {
    const rt = await loadRuntime();
    registerMoney(rt);
    const cp = { version: 1, rootInput: { messages: [] }, enableStreaming: false, runPath: ['a'], session: { values: { w: new Money(1n, 'EUR') }, events: [] }, interrupts: {}, createdAt: 'now' };
    const text = rt.serializeCheckpoint(cp as any);
    const fresh = await loadRuntime();
    let thrown: any;
    try {
      fresh.parseCheckpoint('cp9', text);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(fresh.CheckpointError);
    expect(thrown).toMatchObject({ code: 'checkpoint_type', checkpointId: 'cp9' });
    expect(thrown.message).toMatch(/checkpoint cp9 holds a value of type "Money".*registerCheckpointType\('Money'/);
  });

  // Issue 43, item 8: an unregistered class used to come back a plain object, its methods gone, without a word.
  it('saving an instance of a class nobody registered is an error naming the path and registerCheckpointType', async () => {
    const rt = await loadRuntime();
    class Cart {
      items = ['a'];
      total() {
        return this.items.length;
      }
    }
    const cp = { version: 1, rootInput: { messages: [] }, enableStreaming: false, runPath: ['a'], session: { values: { cart: new Cart() }, events: [] }, interrupts: {}, createdAt: 'now' };
    expect(() => rt.serializeCheckpoint(cp as any)).toThrow(/the value at \.session\.values\.cart is an instance of Cart, which a checkpoint cannot bring back: register it with registerCheckpointType\('Cart'/);
  });

  it('checkpoints written before the codec (plain JSON) still parse as they are', async () => {
    const rt = await loadRuntime();
    const old = { version: 1, rootInput: { messages: [{ role: 'user', content: 'hi' }] }, enableStreaming: false, runPath: ['a'], session: { values: { due: '2024-05-06T07:08:09.123Z', n: 1, o: { v: 2 } }, events: [] }, interrupts: {}, createdAt: 'then' };
    const cp = rt.parseCheckpoint('old', JSON.stringify(old));
    expect(cp.session.values).toEqual(old.session.values);
  });

  it('registering a type needs a way to recognise it, and the built-in names are taken', async () => {
    const rt = await loadRuntime();
    expect(() => rt.registerCheckpointType('Thing', { encode: (x: unknown) => x, decode: (x: unknown) => x } as any)).toThrow(/needs `ctor` or `is`/);
    expect(() => rt.registerCheckpointType('Date', { ctor: Date, encode: String, decode: (s: any) => new Date(s) })).toThrow(/"Date" is built in/);
  });
});

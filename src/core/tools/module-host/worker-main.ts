/**
 * The code of a module tool's worker thread. It is sent as source (`String(moduleToolWorker)`), so
 * it must stay self-contained: no imports, nothing from outside this function. It imports the
 * module, describes the export to the main thread, and runs calls with a context whose signal,
 * interrupt, sendAction and emit travel as messages.
 */
/** The worker's own `require`, defined by the line that runs this function (see module-host.ts). */
declare const workerRequire: (id: string) => unknown;

export function moduleToolWorker(): void {
  const { parentPort, workerData } = workerRequire('node:worker_threads') as typeof import('node:worker_threads');
  const port = parentPort!;
  const { file, exportName, zodUrl } = workerData as { file: string; exportName: string; zodUrl: string };
  const running = new Map<number, AbortController>();
  const INTERRUPT = Symbol('interrupt');
  const isZod = (p: unknown): p is { safeParse(v: unknown): any } => typeof (p as { safeParse?: unknown })?.safeParse === 'function';
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
  // Built from text so no bundler or test transform rewrites this import() on its way into the worker.
  const load = new Function('url', 'return import(url)') as (url: string) => Promise<Record<string, any>>;
  let tool: any;

  const ready = (async () => {
    let mod: Record<string, unknown>;
    try {
      mod = await load(file);
    } catch (e) {
      return port.postMessage({ type: 'load-error', message: message(e) });
    }
    if (!(exportName in mod)) return port.postMessage({ type: 'no-export', exports: Object.keys(mod) });
    tool = mod[exportName];
    const t = tool && typeof tool === 'object' ? tool : undefined;
    let parameters: unknown = t?.parameters;
    let schemaError: string | undefined;
    try {
      if (isZod(parameters)) {
        const z = await load(zodUrl);
        const { $schema: _drop, ...rest } = z.toJSONSchema(parameters, { io: 'input' });
        parameters = rest;
      } else if (parameters !== undefined) parameters = JSON.parse(JSON.stringify(parameters));
    } catch (e) {
      schemaError = message(e);
    }
    port.postMessage({
      type: 'ready',
      isObject: t !== undefined,
      typeOf: typeof tool,
      name: t?.name,
      description: t?.description,
      parameters,
      schemaError,
      hasExecute: typeof t?.execute === 'function',
      timeoutMs: t?.timeoutMs,
    });
  })();

  port.on('message', async (m: { type: string; id: number; args?: unknown; ctx?: Record<string, unknown> }) => {
    if (m.type === 'abort') return running.get(m.id)?.abort();
    if (m.type !== 'call') return;
    await ready;
    const ac = new AbortController();
    running.set(m.id, ac);
    const post = (x: Record<string, unknown>) => port.postMessage({ id: m.id, ...x });
    const ctx = {
      ...m.ctx,
      signal: ac.signal,
      interrupt(info: unknown, state?: unknown): never {
        throw { [INTERRUPT]: true, info, state };
      },
      sendAction(action: unknown) {
        post({ type: 'action', action });
      },
      emit(event: unknown) {
        post({ type: 'event', event });
      },
    };
    try {
      let args = m.args;
      if (isZod(tool.parameters)) {
        // zod's own parse too: defaults and transforms the JSON schema cannot express.
        const r = tool.parameters.safeParse(args);
        if (!r.success) throw new Error(r.error.issues.map((i: { path: unknown[]; message: string }) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
        args = r.data;
      }
      const output = await tool.execute(args, ctx);
      try {
        post({ type: 'result', output });
      } catch {
        post({ type: 'result', output: JSON.parse(JSON.stringify(output ?? '')) });
      }
    } catch (e) {
      if (e && typeof e === 'object' && INTERRUPT in e) {
        const { info, state } = e as unknown as { info: unknown; state: unknown };
        post({ type: 'interrupt', info, state });
      } else post({ type: 'error', message: message(e) });
    } finally {
      running.delete(m.id);
    }
  });
}

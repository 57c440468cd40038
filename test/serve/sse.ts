/** One server-sent event as a client reads it. */
export interface SseEvent {
  event: string;
  id: string;
  data: any;
}

/** Reads a `text/event-stream` response, calling `onEvent` for each event, until it ends or `stop` returns true. */
export async function readSse(res: Response, onEvent?: (e: SseEvent) => boolean | void): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let cut: number;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        if (!line || line.startsWith(':')) continue;
        const i = line.indexOf(':');
        const key = line.slice(0, i);
        fields[key] = (fields[key] ? `${fields[key]}\n` : '') + line.slice(i + 1).replace(/^ /, '');
      }
      if (!fields.data) continue;
      const e = { event: fields.event ?? 'message', id: fields.id ?? '', data: JSON.parse(fields.data) };
      events.push(e);
      if (onEvent?.(e) === true) {
        await reader.cancel();
        return events;
      }
    }
  }
  return events;
}

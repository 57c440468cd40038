import type { Redis } from 'ioredis';
import { importOptional, notInstalled } from '../../core/optional-peer.js';
import { importModule } from '../../core/dynamic-import.js';
import type { RedisOutageLog } from './redis-outage.js';

/** BullMQ and ioredis, loaded when a server or worker runs on Redis (optional peer dependencies). */
export async function loadQueueLibs(): Promise<{ bullmq: typeof import('bullmq'); Redis: typeof import('ioredis').Redis }> {
  const missing = (pkg: string) => () => new Error(`turns queued on Redis (ADK_STORE=redis://…) need ${notInstalled(pkg)}`);
  const bullmq = await importOptional(() => importModule<typeof import('bullmq')>('bullmq'), 'bullmq', missing('bullmq'));
  const ioredis = await importOptional(() => importModule<typeof import('ioredis')>('ioredis'), 'ioredis', missing('ioredis'));
  return { bullmq, Redis: ioredis.Redis };
}

/** A connection as BullMQ wants it (no per-command retry limit: blocking reads wait). */
export function connectRedis(RedisClass: typeof import('ioredis').Redis, url: string, outage: RedisOutageLog): Redis {
  // Failures reach callers through their commands; the client reconnects by itself; the outage is said once.
  return outage.watch(new RedisClass(url, { maxRetriesPerRequest: null, lazyConnect: false }));
}

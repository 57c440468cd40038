import * as z from 'zod';
import { STREAM_MODES, type StreamMode } from './stream-modes.js';

const Strategy = z.enum(['reject', 'interrupt', 'rollback', 'enqueue']);

/** A run as the SDK's `runs.create/stream/wait` send it; fields adk has no use for are accepted and ignored. */
export const RunBody = z.looseObject({
  assistant_id: z.string().min(1),
  input: z.unknown().optional(),
  command: z.looseObject({ resume: z.unknown().optional() }).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  stream_mode: z.union([z.string(), z.array(z.string())]).nullish(),
  multitask_strategy: Strategy.nullish(),
  if_not_exists: z.enum(['create', 'reject']).nullish(),
  on_completion: z.enum(['delete', 'keep']).nullish(),
  on_disconnect: z.enum(['cancel', 'continue']).nullish(),
  /** Start from this checkpoint of the thread (edit, regenerate): the SDK sends `checkpoint` and/or `checkpoint_id`. */
  checkpoint: z.looseObject({ checkpoint_id: z.string().nullish() }).nullish(),
  checkpoint_id: z.string().nullish(),
});
export type RunRequest = z.infer<typeof RunBody>;

export const ThreadBody = z.looseObject({
  thread_id: z.string().min(1).max(200).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  if_exists: z.enum(['raise', 'do_nothing']).nullish(),
});

export const ThreadSearchBody = z.looseObject({
  metadata: z.record(z.string(), z.unknown()).nullish(),
  ids: z.array(z.string()).nullish(),
  status: z.enum(['idle', 'busy', 'interrupted', 'error']).nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: z.enum(['thread_id', 'status', 'created_at', 'updated_at']).nullish(),
  sort_order: z.enum(['asc', 'desc']).nullish(),
});

export const AssistantSearchBody = z.looseObject({
  graph_id: z.string().nullish(),
  name: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  limit: z.number().int().min(1).nullish(),
  offset: z.number().int().min(0).nullish(),
});

export const HistoryBody = z.looseObject({
  limit: z.number().int().min(1).nullish(),
  before: z.union([z.string(), z.looseObject({ checkpoint_id: z.string().nullish() })]).nullish(),
});

/** The modes asked for (LangGraph's default: `values`); an unknown mode is refused by name. */
export function streamModes(raw: RunRequest['stream_mode']): Set<StreamMode> | string {
  const asked = raw == null ? ['values'] : Array.isArray(raw) ? raw : [raw];
  for (const m of asked) if (!(STREAM_MODES as readonly string[]).includes(m)) return m;
  return new Set(asked as StreamMode[]);
}

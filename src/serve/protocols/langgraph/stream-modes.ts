/** LangGraph's `stream_mode`s that adk's translator can stream. */
export const STREAM_MODES = ['values', 'updates', 'messages', 'messages-tuple', 'events', 'custom', 'debug'] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

/** `adk/stores`: sessions and checkpoints in SQLite (default), Redis or Postgres (optional drivers), or memory. */
export * from '../store/index.js';

/** `adk/testing`: deterministic models for tests and demos (no network). */
export { ScriptedChatModel, type ScriptStep, type ScriptedReply, type ScriptedToolCall, type ScriptedCall } from '../models/scripted.js';
export { createDemoModel, DEMO_MODEL_NAME } from '../models/demo.js';
export { InMemoryCheckpointStore } from '../store/checkpoint-store.js';

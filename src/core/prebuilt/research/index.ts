export * from './plan.js';
export * from './options.js';
export * from './session-keys.js';
export * from './research-team.js';

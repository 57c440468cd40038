export * from './deterministic-transfer.js';
export * from './supervisor.js';
export * from './plan-execute/index.js';
export * from './deep/index.js';
export * from './research/index.js';

export * from './message.js';
export * from './concat.js';
export * from './message-stream.js';

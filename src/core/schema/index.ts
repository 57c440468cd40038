export * from './message.js';
export * from './concat.js';
export * from './message-stream.js';
export * from './content-part.js';
export * from './read-part.js';

/** `adk/config`: agents.yaml loading, validation (file:line:col problems) and building a team from it. */
export * from '../config/index.js';

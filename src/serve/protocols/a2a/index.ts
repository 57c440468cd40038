export { addA2aRoutes, type A2aOptions } from './routes.js';

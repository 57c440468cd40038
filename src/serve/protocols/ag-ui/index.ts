export { addAgUiRoutes, type AgUiOptions } from './routes.js';
export { AgUiTranslator } from './translator.js';

export { langGraphApp, type LangGraphOptions } from './routes.js';

export { langGraphApp, langGraphShared, type LangGraphOptions, type LangGraphShared } from './routes.js';

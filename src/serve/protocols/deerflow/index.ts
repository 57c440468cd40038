export { addDeerFlowRoutes, type DeerFlowOptions } from './routes.js';
export { deerflowRole, type DeerFlowRole } from './roles.js';
export { deerflowPlan } from './plan-card.js';
export { DeerFlowTranslator } from './translator.js';

export { deepAgent, DEFAULT_DEEP_MAX_ITERATIONS, type DeepAgentConfig } from './deep-agent.js';
export { taskTool, TASK_TOOL } from './task-tool.js';
export { writeTodosTool, isTodosEvent, todoMark, TODOS_SESSION_KEY, TODO_STATUSES, type Todo, type TodoStatus, type TodosEvent } from './todos.js';
export { DEEP_INSTRUCTION, GENERAL_PURPOSE_NAME } from './prompts.js';

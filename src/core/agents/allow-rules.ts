/**
 * Calls a person allowed ahead of time, as `tool` or `tool(pattern)`: `shell(git status*)`,
 * `shell(npm test)`, `read_file`, `write_file(docs/*)`. A pattern matches the whole command (shell)
 * or path (file tools); `*` stands for any text. A shell command with operators, substitutions or
 * redirections never matches a pattern (`git status; rm -rf ~` is not `git status*`).
 */
export interface AllowRule {
  tool: string;
  pattern?: string | undefined;
  /** Where it was written (for `/tools`): `agents.yaml`, `adk config`. */
  source?: string | undefined;
}

const RULE = /^([A-Za-z0-9_-]{1,64})(?:\((.+)\))?$/;
const SHELL_OPERATORS = /[;&|<>`$(){}\\\n\r!*?[\]~]/;
const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_dir', 'grep']);

/** Parses one rule; a string says what is wrong with it. */
export function parseAllowRule(text: string): AllowRule | string {
  const m = RULE.exec(text.trim());
  if (!m) return `'${text}' is not a rule: write a tool name, or tool(pattern) such as shell(git status*)`;
  const [, tool, pattern] = m;
  if (pattern !== undefined && tool !== 'shell' && !PATH_TOOLS.has(tool)) {
    return `'${text}': patterns are for shell (its command) and the file tools (their path); write just '${tool}'`;
  }
  return pattern === undefined ? { tool } : { tool, pattern: pattern.trim() };
}

export function ruleAllows(rule: AllowRule, tool: string, args: unknown): boolean {
  if (rule.tool !== tool) return false;
  if (rule.pattern === undefined) return true;
  const a = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (tool === 'shell') {
    const command = typeof a.command === 'string' ? a.command.trim() : undefined;
    return command !== undefined && !SHELL_OPERATORS.test(command) && globMatch(rule.pattern, command);
  }
  const p = typeof a.path === 'string' ? a.path : undefined;
  return p !== undefined && !p.split(/[\\/]/).includes('..') && globMatch(rule.pattern, p);
}

function globMatch(pattern: string, text: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`, 's');
  return re.test(text);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function formatRule(rule: AllowRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

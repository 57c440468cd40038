/** Colours an agent name may get. Red is left out: it means errors. */
export const AGENT_PALETTE = [
  'cyan',
  'magenta',
  'yellow',
  'green',
  'blue',
  'cyanBright',
  'magentaBright',
  'yellowBright',
  'greenBright',
  'blueBright',
] as const;

export type AgentColor = (typeof AGENT_PALETTE)[number];

/** FNV-1a: stable across runs and processes, so an agent keeps its colour everywhere. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function agentColor(name: string): AgentColor {
  return AGENT_PALETTE[hash(name) % AGENT_PALETTE.length];
}

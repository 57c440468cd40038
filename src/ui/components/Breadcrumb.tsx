import { Text } from 'ink';
import { displayWidth } from '../text/width.js';
import { PATH_SEPARATOR } from '../theme/glyphs.js';
import { AgentName } from './AgentName.js';

export interface BreadcrumbProps {
  /** A run path: `['team', 'lead', 'researcher']`. The last one is the agent speaking. */
  path: readonly string[];
  /** When the path is wider, its start gives way to `…`. */
  width?: number;
}

/** The live transfer path: `team ▸ lead ▸ researcher`, the current agent highlighted. */
export function Breadcrumb({ path, width = Infinity }: BreadcrumbProps) {
  if (!path.length) return null;
  let shown = [...path];
  while (shown.length > 1 && displayWidth(shown.join(PATH_SEPARATOR)) > width) {
    if (shown[0] !== '…') shown = ['…', ...shown.slice(1)];
    else shown = shown.length > 2 ? ['…', ...shown.slice(2)] : shown.slice(1);
  }
  return (
    <Text>
      {shown.map((name, i) => {
        const last = i === shown.length - 1;
        return (
          <Text key={i}>
            {i > 0 ? <Text dimColor>{PATH_SEPARATOR}</Text> : null}
            {name === '…' && !last ? <Text dimColor>…</Text> : last ? <AgentName name={name} /> : <AgentName name={name} bold={false} dim />}
          </Text>
        );
      })}
    </Text>
  );
}

import { Text } from 'ink';
import { Breadcrumb } from '../components/Breadcrumb.js';
import { Spinner } from '../components/Spinner.js';
import { formatElapsed } from '../components/StatusLine.js';

/** While a run is going: who is speaking (the transfer path), for how long, and how to stop it. */
export function ActivityLine({ path, elapsedMs, width }: { path: readonly string[]; elapsedMs: number; width: number }) {
  const tail = ` · ${formatElapsed(elapsedMs)} · esc to cancel`;
  return (
    <Text>
      <Spinner /> {path.length ? <Breadcrumb path={path} width={width - tail.length - 2} /> : <Text dimColor>working</Text>}
      <Text dimColor>{tail}</Text>
    </Text>
  );
}

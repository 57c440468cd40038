import { Text } from 'ink';
import { Breadcrumb } from '../components/Breadcrumb.js';
import { Spinner } from '../components/Spinner.js';
import { formatElapsed } from '../components/StatusLine.js';
import { sanitizeText } from '../text/sanitize.js';
import type { ViewState } from '../state/transcript.js';

/** While a run is going: who is speaking (the transfer path), for how long, and how to stop it. */
export function ActivityLine({ path, elapsedMs, width, retry, canBackground = false }: { path: readonly string[]; elapsedMs: number; width: number; retry?: ViewState['retry']; canBackground?: boolean }) {
  const tail = ` · ${formatElapsed(elapsedMs)} · esc to cancel${canBackground ? ' · ctrl-b to background' : ''}`;
  const again = retry ? ` · retrying (attempt ${retry.attempt + 1}): ${sanitizeText(retry.error).replace(/\s+/g, ' ')}` : '';
  return (
    <Text wrap="truncate-end">
      <Spinner /> {path.length ? <Breadcrumb path={path} width={Math.max(10, width - tail.length - again.length - 2)} /> : <Text dimColor>working</Text>}
      {again ? <Text color="yellow">{again}</Text> : null}
      <Text dimColor>{tail}</Text>
    </Text>
  );
}

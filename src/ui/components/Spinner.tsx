import { Text } from 'ink';
import { useTick } from '../hooks/use-tick.js';
import { SPINNER_FRAMES, SPINNER_INTERVAL_MS } from '../theme/glyphs.js';

/** An animated glyph. All spinners share one timer. */
export function Spinner({ color = 'cyan' }: { color?: string }) {
  const n = useTick(SPINNER_INTERVAL_MS);
  return <Text color={color}>{SPINNER_FRAMES[n % SPINNER_FRAMES.length]}</Text>;
}

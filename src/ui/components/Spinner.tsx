import { Text } from 'ink';
import { useClock } from '../hooks/use-clock.js';
import { SPINNER_FRAMES, SPINNER_INTERVAL_MS } from '../theme/glyphs.js';

/** An animated glyph, its frame taken from the clock: all spinners turn together on one timer. */
export function Spinner({ color = 'cyan' }: { color?: string }) {
  const n = Math.floor(useClock(SPINNER_INTERVAL_MS) / SPINNER_INTERVAL_MS);
  return <Text color={color}>{SPINNER_FRAMES[n % SPINNER_FRAMES.length]}</Text>;
}

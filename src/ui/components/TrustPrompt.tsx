import { Box, Text } from 'ink';
import { useArmed } from '../hooks/use-armed.js';
import { useKeys } from '../hooks/use-keys.js';
import { sanitizeText } from '../text/sanitize.js';
import { KeyHints, PromptFrame } from './PromptFrame.js';

export interface TrustPromptProps {
  file: string;
  /** What the file would do, one line each. */
  powers: string[];
  width: number;
  onDecision: (trust: boolean) => void;
  /** What is asked about (default: the folder's agents file), and what `n` does (default: quit). */
  title?: string | undefined;
  declineHint?: string | undefined;
}

/** Asked once per agents file (and again when it changes) before adk runs what a folder configures. */
export function TrustPrompt({ file, powers, width, onDecision, title, declineHint }: TrustPromptProps) {
  const arming = useArmed();
  useKeys((input, key) => {
    if (key.escape || (key.ctrl && input === 'c')) return onDecision(false);
    if (!arming.armed()) return arming.touch();
    if (key.ctrl || key.meta) return;
    const k = input.toLowerCase();
    if (k === 'y') onDecision(true);
    else if (k === 'n' || k === 'q') onDecision(false);
  });
  return (
    <PromptFrame title={title ?? "Do you trust this folder's agents file?"} color="yellow" width={width}>
      <Text>{sanitizeText(file)}</Text>
      <Box flexDirection="column" marginY={1}>
        <Text>It would:</Text>
        {powers.map((p, i) => (
          <Text key={i}>{`  • ${sanitizeText(p)}`}</Text>
        ))}
      </Box>
      <Text dimColor>Trust it only if you wrote it or read it. A changed file asks again. `adk trust --revoke` undoes this.</Text>
      <KeyHints hints={[['y', 'trust and continue'], ['n', declineHint ?? 'quit']]} />
    </PromptFrame>
  );
}

import { Box, Text } from 'ink';
import { COLLAPSED_RESULT_LINES } from '../../state/reducer.js';
import { AgentName } from '../AgentName.js';

export interface ThoughtProps {
  agent: string;
  text: string;
  /** How long the model thought, when known. */
  ms?: number | undefined;
  /** Collapsed thoughts are one line (issue 32: "✻ Thought for 4 s"; Ctrl-O shows them); live ones show their last lines. */
  mode?: 'collapsed' | 'expanded' | 'tail';
}

/** "4 s", "1 min 5 s": at least 1 s (a thought did take time). */
export function thoughtDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The model's reasoning, dimmed: one line once it is over, in full when expanded. */
export function Thought({ agent, text, ms, mode = 'collapsed' }: ThoughtProps) {
  if (mode === 'collapsed') {
    return (
      <Text dimColor>
        {'✻ '}
        {ms === undefined ? 'Thought' : `Thought for ${thoughtDuration(ms)}`}
        {' · '}
        <AgentName name={agent} bold={false} dim />
        {' · ctrl-o to view'}
      </Text>
    );
  }
  const lines = text.split('\n');
  const shown = mode === 'expanded' ? lines : lines.slice(-COLLAPSED_RESULT_LINES);
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column">
      <Text dimColor>
        {'✻ '}
        <AgentName name={agent} bold={false} dim />
        {mode === 'tail' ? ' thinking' : ms === undefined ? ' thought' : ` thought for ${thoughtDuration(ms)}`}
      </Text>
      {hidden > 0 ? <Text dimColor>{`  … ${hidden} lines above`}</Text> : null}
      <Box paddingLeft={2}>
        <Text dimColor italic>
          {shown.join('\n')}
        </Text>
      </Box>
    </Box>
  );
}

import { Box, Text } from 'ink';
import { COLLAPSED_RESULT_LINES } from '../../state/reducer.js';
import { AgentName } from '../AgentName.js';

export interface ThoughtProps {
  agent: string;
  text: string;
  /** Collapsed thoughts show their first lines; live ones show their last lines instead. */
  mode?: 'collapsed' | 'expanded' | 'tail';
}

/** The model's reasoning, dimmed. */
export function Thought({ agent, text, mode = 'collapsed' }: ThoughtProps) {
  const lines = text.split('\n');
  const shown = mode === 'expanded' ? lines : mode === 'tail' ? lines.slice(-COLLAPSED_RESULT_LINES) : lines.slice(0, COLLAPSED_RESULT_LINES);
  const hidden = lines.length - shown.length;
  return (
    <Box flexDirection="column">
      <Text dimColor>
        {'✻ '}
        <AgentName name={agent} bold={false} dim />
        {' thinking'}
      </Text>
      {mode === 'tail' && hidden > 0 ? <Text dimColor>{`  … ${hidden} lines above`}</Text> : null}
      <Box paddingLeft={2}>
        <Text dimColor italic>
          {shown.join('\n')}
        </Text>
      </Box>
      {mode === 'collapsed' && hidden > 0 ? <Text dimColor>{`  … +${hidden} lines (/expand)`}</Text> : null}
    </Box>
  );
}

import { Box, Text } from 'ink';
import type { EditorState } from '../input/editor.js';

export interface EditorViewProps {
  state: EditorState;
  /** Shown before the first line; later lines are indented to match. */
  prompt?: string;
  promptColor?: string;
  placeholder?: string;
  /** Draw the cursor (an inverse cell). */
  focus?: boolean;
}

/** A text being edited, with its cursor, over as many lines as it has. */
export function EditorView({ state, prompt = '', promptColor, placeholder, focus = true }: EditorViewProps) {
  const indent = ' '.repeat([...prompt].length);
  if (!state.text && placeholder) {
    return (
      <Text>
        <Text color={promptColor}>{prompt}</Text>
        {focus ? <Text inverse>{placeholder[0]}</Text> : null}
        <Text dimColor>{focus ? placeholder.slice(1) : placeholder}</Text>
      </Text>
    );
  }
  const lines = state.text.split('\n');
  let offset = 0;
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => {
        const start = offset;
        offset += line.length + 1;
        const hasCursor = focus && state.cursor >= start && state.cursor <= start + line.length;
        if (!hasCursor) return <Text key={i}>{i === 0 ? <Text color={promptColor}>{prompt}</Text> : indent}{line || ' '}</Text>;
        const rest = line.slice(state.cursor - start);
        const under = [...rest][0];
        return (
          <Text key={i}>
            {i === 0 ? <Text color={promptColor}>{prompt}</Text> : indent}
            {line.slice(0, state.cursor - start)}
            <Text inverse>{under ?? ' '}</Text>
            {under ? rest.slice(under.length) : ''}
          </Text>
        );
      })}
    </Box>
  );
}

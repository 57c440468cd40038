import { Box, Text } from 'ink';

/** What the person typed. */
export function UserTurn({ text }: { text: string }) {
  return (
    <Box flexDirection="row">
      <Text bold color="gray">
        {'› '}
      </Text>
      <Text>{text}</Text>
    </Box>
  );
}

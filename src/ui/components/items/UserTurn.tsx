import { Box, Text } from 'ink';
import { attachmentNames } from '../../text/attachments.js';

/** The person's message as typed, with a chip for each image or PDF it attaches. */
export function UserTurn({ text }: { text: string }) {
  const attached = attachmentNames(text);
  return (
    <Box flexDirection="column">
      <Box flexDirection="row">
        <Text bold color="gray">
          {'› '}
        </Text>
        <Text>{text}</Text>
      </Box>
      {attached.length > 0 && (
        <Box flexDirection="row" marginLeft={2} gap={1}>
          {attached.map((name, i) => (
            <Text key={i} inverse color="cyan">
              {` ${/\.pdf$/i.test(name) ? 'PDF' : 'image'} ${name} `}
            </Text>
          ))}
        </Box>
      )}
    </Box>
  );
}

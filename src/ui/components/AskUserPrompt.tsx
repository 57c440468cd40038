import { Text } from 'ink';
import { PromptFrame } from './PromptFrame.js';
import { TextInput } from './TextInput.js';

export interface AskUserPromptProps {
  agent?: string;
  question: string;
  width: number;
  counter?: string;
  onAnswer: (text: string) => void;
}

/** An agent's question (`ask_user`): type the answer, Enter sends it. */
export function AskUserPrompt({ agent, question, width, counter, onAnswer }: AskUserPromptProps) {
  return (
    <PromptFrame agent={agent} title="asks" color="cyan" width={width} counter={counter}>
      <Text>{question}</Text>
      <TextInput prompt="answer › " promptColor="cyan" onSubmit={onAnswer} />
    </PromptFrame>
  );
}

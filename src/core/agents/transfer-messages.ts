import { randomUUID } from 'node:crypto';
import { TRANSFER_TOOL_NAME } from '../tools/control-tools.js';
import { assistantMessage, toolMessage, type Message } from '../schema/message.js';

/**
 * The messages of a transfer the framework makes on an agent's behalf: an assistant call of
 * `transfer_to_agent` and its result. Unlike Eino (issue #786) the arguments are valid JSON, so
 * providers accept them when the history is replayed.
 */
export function genTransferMessages(dest: string): [Message, Message] {
  const id = randomUUID();
  const call = assistantMessage('', [{ id, function: { name: TRANSFER_TOOL_NAME, arguments: JSON.stringify({ agent_name: dest }) } }]);
  return [call, toolMessage(`successfully transferred to agent [${dest}]`, id, TRANSFER_TOOL_NAME)];
}

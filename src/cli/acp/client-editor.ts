import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { EditorAccess } from '../../core/tools/editor-access.js';
import type { SendUpdate } from './update-sink.js';

/**
 * The editor's files and terminals, as adk's tools use them (the run's `editor` tool option), for
 * what the client said it offers: reads see unsaved buffers, writes land in the editor (its undo
 * has them), unsandboxed commands run in its terminal where the person watches them.
 */
export function clientEditor(client: AgentContext, sessionId: string, caps: ClientCapabilities | undefined, send: SendUpdate): EditorAccess | undefined {
  const editor: EditorAccess = {};
  if (caps?.fs?.readTextFile) editor.readTextFile = async (path) => (await client.request('fs/read_text_file', { sessionId, path })).content;
  if (caps?.fs?.writeTextFile) {
    editor.writeTextFile = async (path, content) => {
      await client.request('fs/write_text_file', { sessionId, path, content });
    };
  }
  if (caps?.terminal) {
    editor.runCommand = async ({ command, cwd, callId, env, outputByteLimit, signal }) => {
      const terminal = await client.createTerminal({ sessionId, command: '/bin/sh', args: ['-c', command], cwd, env: Object.entries(env).map(([name, value]) => ({ name, value })), outputByteLimit });
      try {
        send({ sessionUpdate: 'tool_call_update', toolCallId: callId, content: [{ type: 'terminal', terminalId: terminal.id }] });
        const kill = () => void terminal.kill().catch(() => {});
        signal.addEventListener('abort', kill, { once: true });
        try {
          await terminal.waitForExit();
        } finally {
          signal.removeEventListener('abort', kill);
        }
        const out = await terminal.currentOutput();
        return { output: out.output, truncated: out.truncated, exitCode: out.exitStatus?.exitCode ?? null, signal: out.exitStatus?.signal ?? null };
      } finally {
        await terminal.release().catch(() => {});
      }
    };
  }
  return Object.keys(editor).length ? editor : undefined;
}

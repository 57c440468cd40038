import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpServerPool } from '../../src/core/tools/mcp.js';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { FIXTURES, run } from '../tools/helpers.js';

// Issue 12, item 9: a large MCP result is capped like any tool output, not "server exited".
const server = useServer();
const MCP_SERVER = path.join(FIXTURES, 'mcp-server.mjs');

describe('large MCP results', () => {
  it('a 12 MB result arrives capped (exit 0) and the server keeps answering', async () => {
    const home = tempHome();
    const file = writeAgentsFile(
      tempDir('adk-mcpbig-'),
      `version: 1
default: m
agents:
  m:
    description: Uses an MCP server.
    instruction: Test agent.
    tools: [{ mcp: calc }]
mcp_servers:
  calc: { command: "${process.execPath}", args: ["${MCP_SERVER}"] }
`,
    );
    trustAgentsFile(home, file);
    server().enqueue({ toolCalls: [{ id: 'b', name: 'mcp__calc__big', arguments: { mb: 12 } }] }, { toolCalls: [{ id: 'a', name: 'mcp__calc__add', arguments: { a: 2, b: 3 } }] }, { content: 'done' });
    const r = await expectExit(['run', '--agents', file, '--json', 'big'], 0, { env: serverEnv(server(), undefined, home), timeoutMs: 60_000 });
    const [big, add] = ofType(r.lines, 'tool_result');
    expect(big.isError).toBe(false);
    expect(big.content).toMatch(/^y+\n\[output truncated: showing the first \d+ of 12582912 characters\]$/);
    expect(add.content).toBe('5');
  }, 60_000);

  it('a message over the 64 MB limit is a clear error naming the limit', async () => {
    const pool = new McpServerPool({ calc: { command: process.execPath, args: [MCP_SERVER] } }, { cwd: FIXTURES });
    try {
      const r = await run(await pool.tool('calc', 'big'), { mb: 65 });
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/larger than 64 MB \(adk's limit for one MCP message\)/);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

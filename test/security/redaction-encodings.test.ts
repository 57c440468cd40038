import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustAgentsFile } from '../support/trust.js';
import { expectExit, ofType, serverEnv, storeBytes, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 28, MEDIUM 2: redaction caught the key as it is, but an upper-cased copy of it reached the
// model endpoint. Every common re-encoding of a secret is redacted too: upper and lower case,
// base64 (standard and url-safe, at each of the 3 alignments inside a longer base64 text), URL
// encoding, hex, reversed.
const server = useServer();
// `+` and `/` change under URL encoding; both cases, so upper- and lower-casing change it.
const KEY = 'sk-Enc0d3d+Key/Zq9xW7';

// Each command prints one encoding of the key, which a file in the workspace holds.
const node = (expr: string) => `"${process.execPath}" -e "process.stdout.write(${expr})"`;
const key = "require('fs').readFileSync('key.txt','utf8')";
const COMMANDS: Record<string, string> = {
  raw: 'cat key.txt',
  upper: "tr 'a-z' 'A-Z' < key.txt",
  lower: "tr 'A-Z' 'a-z' < key.txt",
  base64_0: 'base64 -w0 < key.txt',
  base64_1: '(printf a; cat key.txt; printf bcd) | base64 -w0',
  base64_2: '(printf ab; cat key.txt; printf c) | base64 -w0',
  base64url_0: "base64 -w0 < key.txt | tr '+/' '-_' | tr -d =",
  base64url_1: "(printf a; cat key.txt) | base64 -w0 | tr '+/' '-_' | tr -d =",
  base64url_2: "(printf ab; cat key.txt) | base64 -w0 | tr '+/' '-_' | tr -d =",
  url: node(`encodeURIComponent(${key})`),
  url_every_byte: node(`Buffer.from(${key}).toString('hex').replace(/../g, (h) => '%' + h.toUpperCase())`),
  hex: 'xxd -p < key.txt | tr -d "\\n"',
  hex_upper: 'xxd -p -u < key.txt | tr -d "\\n"',
  reversed: 'rev key.txt',
};

/** What each command prints, computed here. */
const b64 = (s: string) => Buffer.from(s).toString('base64');
const url64 = (s: string) => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
const hex = Buffer.from(KEY).toString('hex');
const ENCODED: Record<string, string> = {
  raw: KEY,
  upper: KEY.toUpperCase(),
  lower: KEY.toLowerCase(),
  base64_0: b64(KEY),
  base64_1: b64(`a${KEY}bcd`),
  base64_2: b64(`ab${KEY}c`),
  base64url_0: url64(KEY),
  base64url_1: url64(`a${KEY}`),
  base64url_2: url64(`ab${KEY}`),
  url: encodeURIComponent(KEY),
  url_every_byte: hex.replace(/../g, (h) => `%${h.toUpperCase()}`),
  hex,
  hex_upper: hex.toUpperCase(),
  reversed: [...KEY].reverse().join(''),
};

/** Pieces of 12 characters of every encoding: none may survive anywhere (an edge of a few characters may). */
const pieces = (name: string) => {
  const e = ENCODED[name]!;
  return Array.from({ length: e.length - 11 }, (_, i) => e.slice(i, i + 12));
};
function leaks(where: string, text: string): string[] {
  return Object.keys(ENCODED).flatMap((name) => (pieces(name).some((p) => text.includes(p)) ? [`${name} in ${where}`] : []));
}

function team(home: string, ws: string): string {
  writeFileSync(join(ws, 'key.txt'), KEY);
  const file = writeAgentsFile(
    tempDir('adk-enc-cfg-'),
    `version: 1
default: s
agents:
  s:
    description: Prints the key in many encodings.
    instruction: Test agent.
    tools: [shell]
    approval: []
`,
  );
  trustAgentsFile(home, file);
  return file;
}

describe('redaction catches re-encodings of a secret', () => {
  it('a command prints the key upper/lower-cased, base64 (both alphabets, 3 alignments), URL-encoded, hex and reversed: none reaches the next model request, the store, stdout or stderr', async () => {
    const home = tempHome();
    const ws = tempDir('adk-enc-ws-');
    const agents = team(home, ws);
    const names = Object.keys(COMMANDS);
    const script = () =>
      server().enqueue({ toolCalls: names.map((id) => ({ id, name: 'shell', arguments: { command: COMMANDS[id]! } })) }, { content: 'done' });
    script();
    const env = serverEnv(server(), KEY, home);
    const r = await expectExit(['run', '--agents', agents, '--json', 'print it'], 0, { env, cwd: ws });
    const results = ofType(r.lines, 'tool_result');
    expect(results.map((t) => t.id).sort()).toEqual([...names].sort());
    // Text mode too: its tool lines (stderr) and answer (stdout).
    script();
    const text = await expectExit(['run', '--agents', agents, 'print it'], 0, { env, cwd: ws });
    const next = JSON.stringify(server().chatRequests[1]!.body);
    expect([
      ...leaks('the next model request', next),
      ...leaks('the next model request (text mode)', JSON.stringify(server().chatRequests[3]!.body)),
      ...leaks('stdout', r.stdout + text.stdout),
      ...leaks('stderr', r.stderr + text.stderr),
      ...leaks('the store', storeBytes(home)),
    ]).toEqual([]);
    // The commands did print the key: what reached the model is the redaction of it.
    for (const t of results) expect(t.content, t.id).toContain('[REDACTED]');
    expect(next).toContain('[REDACTED]');
  });
});

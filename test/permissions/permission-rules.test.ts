import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addPermissionRule, readPermissionSettings, removePermissionRule, trustSettingsFile } from '../../src/cli/settings/permission-rules.js';
import { readSettingsFile } from '../../src/cli/settings/settings-files.js';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { z } from 'zod';
import { ChatModelAgent, ScriptedChatModel, type Tool } from '../../src/core/index.js';
import { openAdkStores } from '../../src/core/store/index.js';

// Issue 32: permission rules per folder. A folder's settings files can come with a repository, so
// their allow rules apply only while trusted; adk keeps trusting a file it wrote for the person.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder() {
  const root = mkdtempSync(join(tmpdir(), 'adk-perm-rules-'));
  dirs.push(root);
  const work = join(root, 'work');
  mkdirSync(join(work, '.adk'), { recursive: true });
  return { work, env: { ADK_HOME: join(root, 'home') } as NodeJS.ProcessEnv };
}
const texts = (s: ReturnType<typeof readPermissionSettings>['rules']) => s.map((r) => `${r.kind} ${r.text} ${r.scope}`);

describe('permission rules in settings files', () => {
  it("a repository's shared or local allow rules are not applied until trusted; deny rules always are", () => {
    const { work, env } = folder();
    writeFileSync(join(work, '.adk', 'settings.json'), JSON.stringify({ permissions: { allow: ['shell(curl*)'], deny: ['shell(rm*)'] } }));
    writeFileSync(join(work, '.adk', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['write_file'], defaultMode: 'acceptEdits' } }));
    const s = readPermissionSettings(work, env);
    expect(texts(s.rules)).toEqual(['deny shell(rm*) project']);
    expect(texts(s.untrusted)).toEqual(['allow shell(curl*) project', 'allow write_file local']);
    expect(s.defaultMode).toBeUndefined();
    trustSettingsFile(readSettingsFile('project', join(work, '.adk', 'settings.json')), env);
    expect(texts(readPermissionSettings(work, env).rules)).toEqual(['allow shell(curl*) project', 'deny shell(rm*) project']);
    // Changed after it was trusted: not applied again.
    writeFileSync(join(work, '.adk', 'settings.json'), JSON.stringify({ permissions: { allow: ['shell(curl*)', 'shell'] } }));
    expect(texts(readPermissionSettings(work, env).untrusted)).toContain('allow shell project');
  });

  it('a rule adk writes is applied (its file stays trusted), and removed again', () => {
    const { work, env } = folder();
    const file = addPermissionRule(work, { tool: 'shell', pattern: 'npm test*' }, 'allow', 'local', env);
    expect(file).toBe(join(work, '.adk', 'settings.local.json'));
    addPermissionRule(work, { tool: 'write_file', pattern: 'src/a.ts' }, 'allow', 'local', env);
    expect(texts(readPermissionSettings(work, env).rules)).toEqual(['allow shell(npm test*) local', 'allow write_file(src/a.ts) local']);
    removePermissionRule(work, { kind: 'allow', text: 'shell(npm test*)', scope: 'local' }, env);
    expect(texts(readPermissionSettings(work, env).rules)).toEqual(['allow write_file(src/a.ts) local']);
  });

  it('adding a rule to an untrusted file does not launder what was in it', () => {
    const { work, env } = folder();
    writeFileSync(join(work, '.adk', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['shell(curl*)'] } }));
    addPermissionRule(work, { tool: 'shell', pattern: 'npm test*' }, 'allow', 'local', env);
    const s = readPermissionSettings(work, env);
    expect(s.rules).toEqual([]);
    expect(texts(s.untrusted)).toEqual(['allow shell(curl*) local', 'allow shell(npm test*) local']);
  });

  it('the user file needs no trust; a user defaultMode is read', () => {
    const { work, env } = folder();
    mkdirSync(env.ADK_HOME!, { recursive: true });
    writeFileSync(join(env.ADK_HOME!, 'settings.json'), JSON.stringify({ permissions: { allow: ['read_file'], defaultMode: 'plan' } }));
    const s = readPermissionSettings(work, env);
    expect(texts(s.rules)).toEqual(['allow read_file user']);
    expect(s.defaultMode).toBe('plan');
  });

  it('a deny rule refuses the call whatever allows it (the model is told)', async () => {
    const echo: Tool<{ text: string }> = { name: 'echo', description: 'Echo.', parameters: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` };
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] }, { content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [echo], approval: ['echo'] });
    const stores = await openAdkStores('memory://');
    const conv = await Conversation.start({ agent: { agent, allowRules: [{ tool: 'echo' }], denyRules: [{ tool: 'echo' }] }, stores });
    const r = await conv.send('go').result;
    expect(r.status).toBe('completed');
    expect(model.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toMatch(/A deny rule \(echo\) forbids this echo call; it was not run/);
    await conv.close();
    await stores.close();
  });
});

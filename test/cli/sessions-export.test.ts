import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// Issue 44: trajectories out. `adk sessions export ID --format atif` writes Harbor's ATIF (the format
// Terminal-Bench's leaderboard reads), checked against a JSON Schema written from its RFC (the fixture names its source).
const server = useServer();
const SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/atif/atif-v1.7.schema.json', import.meta.url), 'utf8'));

describe('adk sessions export', () => {
  it('--format atif: a valid ATIF-v1.7 trajectory with the tool call, its result as the observation, and the tokens', async () => {
    const cwd = tempDir('adk-export-');
    writeAgentsFile(cwd, `version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Go., tools: [shell] }\n`);
    const env = serverEnv(server(), 'sk-export-key-000001', tempHome());
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: 'echo hello' } }] }, { content: 'It said hello.' });
    const r = await expectExit(['run', '--json', '--allow', 'shell', 'say hello'], 0, { env, cwd });
    const id = sessionIdOf(r);
    const out = await expectExit(['sessions', 'export', id, '--format', 'atif'], 0, { env, cwd });
    const atif = JSON.parse(out.stdout);
    const validate = new Ajv({ allErrors: true }).compile(SCHEMA);
    expect(validate(atif), JSON.stringify(validate.errors)).toBe(true);
    expect(atif).toMatchObject({ schema_version: 'ATIF-v1.7', session_id: id, trajectory_id: id, agent: { name: 'adk' } });
    const steps = atif.steps as Array<Record<string, any>>;
    expect(steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(steps[1]!.tool_calls).toEqual([{ tool_call_id: 'c1', function_name: 'shell', arguments: { command: 'echo hello' } }]);
    expect(steps[1]!.observation.results[0]).toMatchObject({ source_call_id: 'c1' });
    expect(steps[1]!.observation.results[0].content).toContain('hello');
    expect(steps[2]!.message).toBe('It said hello.');
    expect(atif.final_metrics.total_steps).toBe(3);
    expect(atif.final_metrics.total_prompt_tokens).toBeGreaterThan(0);

    // Markdown and JSON Lines; a file is written whole.
    const md = await expectExit(['sessions', 'export', id, '--format', 'markdown'], 0, { env, cwd });
    expect(md.stdout).toContain('## user');
    expect(md.stdout).toContain('**shell**');
    const file = join(cwd, 'trajectory.jsonl');
    await expectExit(['sessions', 'export', id, '--format', 'jsonl', '--output', file], 0, { env, cwd });
    expect(readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const bad = await runCli(['sessions', 'export', id, '--format', 'xml'], { env, cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format xml: expected atif, jsonl or markdown');
  });

  it('adk run --trajectory FILE writes the same ATIF at the end', async () => {
    const cwd = tempDir('adk-export-');
    const env = serverEnv(server(), 'sk-export-key-000001', tempHome());
    server().enqueue({ content: 'Done.' });
    const file = join(cwd, 'trajectory.json');
    await expectExit(['run', '--trajectory', file, 'hi'], 0, { env, cwd });
    const atif = JSON.parse(readFileSync(file, 'utf8'));
    expect(new Ajv().compile(SCHEMA)(atif)).toBe(true);
    expect(atif.steps.map((s: { message: string }) => s.message)).toEqual(['hi', 'Done.']);
  });

  it('an agent run as a tool is embedded in subagent_trajectories, its result pointing at it; steps carry their cost', async () => {
    const cwd = tempDir('adk-export-');
    writeAgentsFile(cwd, `version: 1\ndefault: boss\nagents:\n  boss: { description: Boss., instruction: Delegate., tools: [{ agent: helper }] }\n  helper: { description: Helps., instruction: Help., tools: [shell] }\n`);
    const env = { ...serverEnv(server(), 'sk-export-key-000001', tempHome()), ADK_MODEL: 'gpt-4o-mini' };
    server().enqueue(
      { toolCalls: [{ id: 'h1', name: 'helper', arguments: { request: 'count the files' } }] },
      { toolCalls: [{ id: 's1', name: 'shell', arguments: { command: 'echo 3 files' } }] },
      { content: 'There are 3 files.' },
      { content: 'The helper says 3.' },
    );
    const id = sessionIdOf(await expectExit(['run', '--json', '--allow', 'shell', 'how many files?'], 0, { env, cwd }));
    const atif = JSON.parse((await expectExit(['sessions', 'export', id], 0, { env, cwd })).stdout);
    const validate = new Ajv({ allErrors: true }).compile(SCHEMA);
    expect(validate(atif), JSON.stringify(validate.errors)).toBe(true);
    const [sub] = atif.subagent_trajectories;
    expect(sub).toMatchObject({ trajectory_id: `${id}/h1`, agent: { name: 'helper' } });
    expect(sub.steps.map((s: { source: string }) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(sub.steps[0].message).toBe('count the files');
    expect(sub.steps[1].tool_calls[0]).toMatchObject({ function_name: 'shell', arguments: { command: 'echo 3 files' } });
    expect(sub.steps[1].observation.results[0].content).toContain('3 files');
    const result = atif.steps[1].observation.results[0];
    expect(result).toMatchObject({ source_call_id: 'h1', content: 'There are 3 files.', subagent_trajectory_ref: [{ trajectory_id: `${id}/h1` }] });
    // gpt-4o-mini has a list price: each step's tokens are priced, and the whole.
    expect(atif.steps[1].metrics.cost_usd).toBeGreaterThan(0);
    expect(sub.steps[1].metrics.cost_usd).toBeGreaterThan(0);
    expect(atif.final_metrics.total_cost_usd).toBeGreaterThan(0);
  });

  it('the schema refuses what ATIF does not allow (so the checks above can fail)', () => {
    const validate = new Ajv().compile(SCHEMA);
    const agent = { name: 'adk', version: '1' };
    expect(validate({ schema_version: 'ATIF-v1.7', session_id: 's', agent, steps: [{ step_id: 1, source: 'assistant', message: '' }] })).toBe(false);
    expect(validate({ schema_version: 'ATIF-v1.7', session_id: 's', agent: { name: 'adk' }, steps: [{ step_id: 1, source: 'user', message: '' }] })).toBe(false);
    // An embedded subagent needs its trajectory_id; a reference needs one (or a path).
    const step = { step_id: 1, source: 'user', message: 'x' };
    expect(validate({ schema_version: 'ATIF-v1.7', agent, steps: [step], subagent_trajectories: [{ schema_version: 'ATIF-v1.7', agent, steps: [step] }] })).toBe(false);
    expect(validate({ schema_version: 'ATIF-v1.7', agent, steps: [{ ...step, observation: { results: [{ subagent_trajectory_ref: [{ session_id: 's' }] }] } }] })).toBe(false);
    expect(validate({ schema_version: 'ATIF-v1.7', agent, steps: [{ ...step, observation: { results: [{ subagent_trajectory_ref: [{ trajectory_id: 't' }] }] } }] })).toBe(true);
  });
});

import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 45: `adk eval` on Harbor task folders. The bundled sample suite (evals/sample) in Harbor's
// format runs without Docker; the oracle agent (each task's solution/solve.sh) must pass all of it.
const server = useServer();
const SAMPLE = resolve('evals/sample');

interface Trial {
  task: string;
  config: string;
  trial: number;
  status: string;
  failure?: string;
  modelCalls: number;
  toolCalls: number;
  inputTokens: number;
  trajectory?: string;
}
const results = (out: string) => JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { schema: string; results: Trial[]; summary: Record<string, { passAt1: number; passed: number; ran: number }>; comparisons: Array<{ config: string; withinNoise: boolean; difference: number }> };

const AGENTS = (instruction: string) => `version: 1
default: solver
agents:
  solver:
    description: Solves eval tasks.
    instruction: ${instruction}
    tools: [read_file, write_file, list_dir, shell]
`;

describe('adk eval', () => {
  it('check validates the sample suite; a broken task is named with its file, line and column', async () => {
    const ok = await expectExit(['eval', 'check', SAMPLE], 0);
    expect(ok.stdout).toContain('11 of 11 tasks valid');
    const bad = tempDir('adk-eval-bad-');
    mkdirSync(join(bad, 'broken', 'tests'), { recursive: true });
    writeFileSync(join(bad, 'broken', 'instruction.md'), 'Do it.\n');
    writeFileSync(join(bad, 'broken', 'task.toml'), 'version = "1.0"\n[agent]\ntimeout_sec = = 3\n');
    const r = await runCli(['eval', 'check', bad]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/task\.toml:3:\d+: /);
    expect(r.stdout).toContain('tests/test.sh is missing');
    // A task's name is its own text: shown inert, never as an escape sequence.
    mkdirSync(join(bad, 'titled'));
    writeFileSync(join(bad, 'titled', 'eval.yaml'), 'name: "x\\e]0;pwned\\a"\ninstruction: Do it.\nexpect: done\n');
    const named = await runCli(['eval', 'check', join(bad, 'titled')]);
    expect(named.stdout).not.toContain('\u001b');
    expect(named.stdout).toContain('␛]0;pwned␇');
  });

  it('the oracle agent scores 100% on the sample suite, two trials at once', async () => {
    const out = tempDir('adk-eval-oracle-');
    const r = await expectExit(['eval', 'run', SAMPLE, '--agent', 'oracle', '--concurrency', '2', '--out', out], 0, { timeoutMs: 120_000 });
    expect(r.stdout).toMatch(/oracle\s+11\/11\s+100%/);
    const res = results(out);
    expect(res.schema).toBe('adk-eval/1');
    expect(res.results.filter((t) => t.status === 'passed')).toHaveLength(11);
  }, 150_000);

  it('a scripted model that solves one task and loops on the other: pass, and a budget stop, counted as the server saw them', async () => {
    const home = tempHome();
    const cfg = tempDir('adk-eval-cfg-');
    const agents = writeAgentsFile(cfg, AGENTS('Solve the task.'));
    server().onRequest((req) => {
      const text = JSON.stringify(req.body.messages);
      const last = req.body.messages.at(-1);
      if (text.includes('The unit test in')) {
        if (last.role === 'tool') return { content: 'Fixed.' };
        return { toolCalls: [{ name: 'write_file', arguments: { path: 'math.js', content: 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n' } }] };
      }
      // parse-log: reads the log for ever.
      return { toolCalls: [{ name: 'read_file', arguments: { path: 'app.log' } }] };
    });
    const out = tempDir('adk-eval-scripted-');
    const r = await expectExit(['eval', 'run', join(SAMPLE, 'fix-failing-test'), join(SAMPLE, 'parse-log'), '--agents', agents, '--max-model-calls', '3', '--out', out], 0, {
      env: serverEnv(server(), 'sk-eval-test-key', home),
      timeoutMs: 150_000,
    });
    const res = results(out);
    const fix = res.results.find((t) => t.task === 'fix-failing-test')!;
    const loop = res.results.find((t) => t.task === 'parse-log')!;
    expect(fix).toMatchObject({ status: 'passed', modelCalls: 2, toolCalls: 1 });
    expect(loop).toMatchObject({ status: 'failed', failure: 'budget', modelCalls: 3, toolCalls: 3 });
    // The server saw exactly the calls the results count.
    expect(server().chatRequests).toHaveLength(fix.modelCalls + loop.modelCalls);
    expect(r.stdout).toContain('parse-log #1 budget');
    // Each trial's trajectory is ATIF.
    const atif = JSON.parse(readFileSync(join(out, fix.trajectory!), 'utf8'));
    expect(atif.schema_version).toMatch(/^ATIF-v1\./);
  }, 180_000);

  it("integrity: the agent finds no tests or solution to read, list or run; the trial still counts", async () => {
    const home = tempHome();
    const cfg = tempDir('adk-eval-cfg-');
    const agents = writeAgentsFile(cfg, AGENTS('Solve the task.').replace('tools: [read_file, write_file, list_dir, shell]', 'tools: [read_file, write_file, list_dir, shell, fetch_url]'));
    // Where the task comes from on the web, serving its solution: named in task.toml's [metadata].
    const fetched: string[] = [];
    const source = createServer((req, res) => {
      fetched.push(req.url ?? '');
      res.end("awk '{print $2}' app.log > reward.txt");
    });
    await new Promise<void>((r) => source.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    const task = join(tempDir('adk-eval-task-'), 'parse-log');
    cpSync(join(SAMPLE, 'parse-log'), task, { recursive: true });
    writeFileSync(join(task, 'task.toml'), readFileSync(join(task, 'task.toml'), 'utf8').replace('[metadata]\n', `[metadata]\nsource_url = "${origin}/tasks/parse-log"\n`));
    let step = 0;
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role !== 'tool' && step > 0) step = 0;
      const moves = [
        { name: 'read_file', arguments: { path: 'tests/test.sh' } },
        { name: 'read_file', arguments: { path: '../tests/test.sh' } },
        { name: 'list_dir', arguments: { path: '.' } },
        { name: 'shell', arguments: { command: 'ls -laR . ; cat solution/solve.sh tests/test.sh .adk-eval/tests/test.sh' } },
        { name: 'fetch_url', arguments: { url: `${origin.toUpperCase().replace('HTTP', 'http')}/tasks/x/../parse%2Dlog/solution/solve.sh` } },
      ];
      const move = moves[step++];
      return move ? { toolCalls: [move] } : { content: 'I found nothing to copy.' };
    });
    const out = tempDir('adk-eval-integrity-');
    // The source's address is opened to fetch_url, so only the task's refusal keeps it out.
    const env = { ...serverEnv(server(), 'sk-eval-test-key', home), ADK_SHELL_SANDBOX: undefined, ADK_FETCH_ALLOW_HOSTS: origin.replace('http://', '') };
    await expectExit(['eval', 'run', task, '--agents', agents, '--out', out], 0, { env, timeoutMs: 150_000 }).finally(() => source.close());
    const res = results(out);
    expect(res.results[0]).toMatchObject({ status: 'failed', failure: 'verifier_failed', toolCalls: 5 });
    expect(fetched).toEqual([]);
    expect(readFileSync(join(out, res.results[0]!.trajectory!), 'utf8')).toContain('A deny rule (fetch_url(');
    const trajectory = readFileSync(join(out, res.results[0]!.trajectory!), 'utf8');
    // What test.sh and solve.sh hold never reached the model.
    expect(trajectory).not.toContain('reward.txt');
    expect(trajectory).not.toContain("awk '{print $2}'");
    for (const req of server().chatRequests) expect(JSON.stringify(req.body)).not.toContain('reward.txt');
  }, 180_000);

  it('two configurations side by side: a real difference is shown with its interval; the same configuration twice is within noise', async () => {
    const home = tempHome();
    const cfg = tempDir('adk-eval-cfg-');
    const good = writeAgentsFile(cfg, AGENTS('GOOD solver.'), 'good.yaml');
    const bad = writeAgentsFile(cfg, AGENTS('BAD solver.'), 'bad.yaml');
    server().onRequest((req) => {
      const text = JSON.stringify(req.body.messages);
      const last = req.body.messages.at(-1);
      if (!text.includes('GOOD solver') || last.role === 'tool') return { content: 'Done.' };
      if (text.includes('The unit test in')) return { toolCalls: [{ name: 'write_file', arguments: { path: 'math.js', content: 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b;\n' } }] };
      return { toolCalls: [{ name: 'write_file', arguments: { path: 'config.json', content: '{"port": 8080, "host": "localhost", "features": ["a", "b"]}\n' } }] };
    });
    const tasks = [join(SAMPLE, 'fix-failing-test'), join(SAMPLE, 'fix-json-config')];
    const env = { ...serverEnv(server(), 'sk-eval-test-key', home) };
    const out = tempDir('adk-eval-side-');
    const r = await expectExit(['eval', 'run', ...tasks, '--agents', bad, '--agents', good, '--trials', '2', '--concurrency', '2', '--out', out], 0, { env, timeoutMs: 170_000 });
    const res = results(out);
    expect(res.summary.good).toMatchObject({ passed: 4, ran: 4 });
    expect(res.summary.bad).toMatchObject({ passed: 0, ran: 4 });
    expect(res.comparisons).toEqual([expect.objectContaining({ config: 'good', difference: 1, withinNoise: false })]);
    expect(r.stdout).toMatch(/good vs bad: \+100 points/);

    const same = tempDir('adk-eval-same-');
    const twice = await expectExit(['eval', 'run', ...tasks, '--agents', bad, '--agents', bad, '--out', same], 0, { env, timeoutMs: 170_000 });
    expect(results(same).comparisons[0]).toMatchObject({ withinNoise: true });
    expect(twice.stdout).toContain('within noise');

    // Two past runs compared: every configuration of both, the first run's first one the baseline.
    const cmp = await expectExit(['eval', 'compare', same, out, '--json'], 0);
    const joined = JSON.parse(cmp.stdout) as { configs: Array<{ name: string }>; comparisons: Array<{ config: string; difference: number }> };
    expect(joined.configs.map((c) => c.name.split(':')[1])).toEqual(['bad', 'bad-2', 'bad', 'good']);
    expect(joined.comparisons.at(-1)).toMatchObject({ difference: 1 });
  }, 360_000);

  it("a judge: {rubric} task: a model grades the answer and the files; its calls are the judge's, apart from the agent's", async () => {
    const home = tempHome();
    const cfg = tempDir('adk-eval-cfg-');
    const agents = writeAgentsFile(cfg, AGENTS('Solve the task.'));
    const task = tempDir('adk-eval-judge-task-');
    writeFileSync(join(task, 'eval.yaml'), 'instruction: What is six times seven? Answer in a sentence.\njudge:\n  rubric: The answer must say 42.\n');
    const judged: string[] = [];
    server().onRequest((req) => {
      const system = JSON.stringify(req.body.messages[0]);
      if (system.includes('You grade the work')) {
        const asked = String(req.body.messages.at(-1).content);
        judged.push(asked);
        return { content: asked.includes('42') ? 'PASS\nIt says 42.' : 'FAIL\nNo 42.' };
      }
      return { content: 'Six times seven is 42.' };
    });
    const out = tempDir('adk-eval-judged-');
    await expectExit(['eval', 'check', task], 0);
    await expectExit(['eval', 'run', task, '--agents', agents, '--out', out], 0, { env: serverEnv(server(), 'sk-eval-test-key', home), timeoutMs: 120_000 });
    const res = results(out);
    expect(res.results[0]).toMatchObject({ status: 'passed', modelCalls: 1 });
    expect(judged).toHaveLength(1);
    expect(judged[0]).toContain('The answer must say 42.');
    expect(judged[0]).toContain('Six times seven is 42.');
    expect(server().chatRequests).toHaveLength(2);
  }, 150_000);
});

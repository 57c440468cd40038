// For scripts/deerflow-web/drive.mjs: a scripted model (the tests' research script) and `adk serve`
// on port 8321 for DeerFlow 1.x's page at http://localhost:3000. Not part of `npm test`.
// Run from the repo after `npm run build`: npx tsx scripts/deerflow-web/backend.mts
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOpenAIServer } from '../../test/support/openai-server.js';
import { researchStep, scriptResearchModel } from '../../test/support/research-model.js';

export const TOKEN = process.env.ADK_SERVE_TOKEN ?? 'deerflow-web-demo-token-0123456789';
const model = await startOpenAIServer();
scriptResearchModel(model, {
  plans: [
    [researchStep('Gather facts', 'research'), researchStep('Compute totals', 'processing')],
    [researchStep('Gather facts', 'research'), researchStep('Compute totals', 'processing'), researchStep('Compare sources', 'research')],
  ],
  report:
    '# Why the sky is blue\n\n## Key Points\n\n- Sunlight scatters off air molecules (**Rayleigh scattering**).\n- Blue light scatters more than red.\n\n## Overview\n\nShort wavelengths are scattered about 5.5 times more than long ones.\n\n## Key Citations\n\n- [Rayleigh scattering](https://example.org/rayleigh)\n- [Sky notes](https://example.org/sky)',
  stepDelayMs: 800,
});
const home = mkdtempSync(join(tmpdir(), 'adk-deerflow-web-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, ADK_HOME: join(home, 'adk'), OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key-123456', ADK_MODEL: 'gpt-test', ADK_SERVE_TOKEN: TOKEN };
const adk = fileURLToPath(new URL('../../bin/adk.js', import.meta.url));
const child = spawn(process.execPath, [adk, 'serve', '--port', '8321', '--cors', 'http://localhost:3000'], { cwd: home, env, stdio: ['ignore', 'inherit', 'inherit'] });
child.on('exit', (code) => {
  console.error(`adk serve exited (${code})`);
  process.exit(1);
});
process.on('SIGTERM', () => {
  child.kill('SIGTERM');
  void model.close();
  process.exit(0);
});
console.error(`NEXT_PUBLIC_API_URL=http://127.0.0.1:8321/t/${TOKEN}/api`);

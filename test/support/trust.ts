import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { teamFingerprint, validateConfig } from '../../src/core/config/index.js';
import { TRUST_FILE_NAME, TrustStore } from '../../src/cli/trust.js';

/** Records trust in `file` for the ADK_HOME `home`, as `adk trust` would (for tests whose files use module tools, MCP, …). */
export function trustAgentsFile(home: string, file: string): void {
  const real = realpathSync(file);
  const text = readFileSync(real, 'utf8');
  const result = validateConfig({ text, file: real });
  if (!result.config) throw new Error(`cannot trust ${file}: ${JSON.stringify(result.problems)}`);
  new TrustStore(join(home, TRUST_FILE_NAME)).trust(real, teamFingerprint(text, result.config));
}

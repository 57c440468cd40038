import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256, TRUST_FILE_NAME, TrustStore } from '../../src/cli/trust.js';

/** Records trust in `file` for the ADK_HOME `home`, as `adk trust` would (for tests whose files use module tools, MCP, …). */
export function trustAgentsFile(home: string, file: string): void {
  new TrustStore(join(home, TRUST_FILE_NAME)).trust(file, sha256(readFileSync(file, 'utf8')));
}

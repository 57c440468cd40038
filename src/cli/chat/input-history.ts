import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultAdkHome } from '../../core/store/store-url.js';

const MAX_ENTRIES = 500;

/** The REPL's ↑/↓ history, one JSON string per line under ADK_HOME, shared by all sessions. */
export class InputHistory {
  readonly file: string;

  constructor(home: string = defaultAdkHome(process.env)) {
    this.file = join(home, 'input-history.jsonl');
  }

  load(): string[] {
    try {
      const lines = readFileSync(this.file, 'utf8').split('\n').filter(Boolean).slice(-MAX_ENTRIES);
      return lines.flatMap((l) => {
        try {
          const v = JSON.parse(l);
          return typeof v === 'string' ? [v] : [];
        } catch {
          return [];
        }
      });
    } catch {
      return [];
    }
  }

  add(text: string): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      appendFileSync(this.file, `${JSON.stringify(text)}\n`, { mode: 0o600 });
    } catch {
      // History is a convenience; failing to write it must not disturb the session.
    }
  }
}

import { JsonEvents, jsonEventText, type JsonEvent } from '../core/conversation/json-events.js';
import { secretsFromEnv } from '../core/store/redact.js';
import { configSecretValues } from './secrets.js';

type Write = (line: string) => void;

/** `adk run --json`: one JSON object per line (DESIGN §6), with secrets redacted. */
export class JsonlSink extends JsonEvents {
  /** `secrets` (default: API keys, *_KEY/_TOKEN/_SECRET values and api_key_env values) are printed as [REDACTED]. */
  constructor(write: Write, secrets: readonly string[] = [...secretsFromEnv(), ...configSecretValues()]) {
    super((event: JsonEvent) => write(`${jsonEventText(event, secrets)}\n`));
  }
}

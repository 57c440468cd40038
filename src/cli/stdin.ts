import { CliError, ExitCode } from './exit-codes.js';

/** The largest prompt adk takes (stdin or arguments): far beyond any context window, far below what exhausts memory. */
export const MAX_PROMPT_BYTES = 8 * 1024 * 1024;

/**
 * Reads stdin as UTF-8 (invalid byte sequences become U+FFFD instead of failing), at most
 * `maxBytes`: a larger input stops being read at once and is a usage error, so 100 MB on stdin
 * costs neither the memory nor the wait.
 */
export async function readStdin(stream: NodeJS.ReadableStream = process.stdin, maxBytes = MAX_PROMPT_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    size += b.length;
    if (size > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw tooLarge(maxBytes);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The prompt words of `adk run`, where a lone `-` means stdin. */
export async function promptFromArgs(words: string[]): Promise<string> {
  if (words.length === 1 && words[0] === '-') return readStdin();
  const prompt = words.join(' ');
  if (Buffer.byteLength(prompt) > MAX_PROMPT_BYTES) throw tooLarge(MAX_PROMPT_BYTES);
  return prompt;
}

function tooLarge(maxBytes: number): CliError {
  return new CliError(`the prompt is larger than ${maxBytes / 1024 / 1024} MB; no session was created. Give the model a file path to read instead.`, ExitCode.usage);
}

/** Reads all of stdin as UTF-8; invalid byte sequences become U+FFFD instead of failing. */
export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The prompt words of `adk run`, where a lone `-` means stdin. */
export async function promptFromArgs(words: string[]): Promise<string> {
  if (words.length === 1 && words[0] === '-') return readStdin();
  return words.join(' ');
}

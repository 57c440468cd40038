import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

/** The variables cleared, or why nothing could be. */
export type ScrubOutcome = { scrubbed: string[] } | { failed: string };

/**
 * Keeps secrets out of this process's environment block.
 *
 * `/proc/PID/environ` shows the block the kernel copied onto the stack at exec, not `process.env`:
 * setting or deleting a variable later changes which string libc's `environ` points at and leaves
 * the original bytes where any thread of this process (a module tool's worker reads
 * `/proc/self/environ`) or any process of this user (an unsandboxed command reads
 * `/proc/$PPID/environ`) can read them. So each secret is first moved to memory of its own
 * (`process.env[name] = value` is a setenv: a fresh copy on the heap, which /proc does not show),
 * then its bytes in the block are overwritten with NULs through `/proc/self/mem` (a process may
 * always write its own memory), and the block is read again to check.
 *
 * Costs nothing when no secret is in the environment (no file is read); otherwise three small reads
 * of /proc and one write per secret: about 1 ms. Where it cannot be done (not Linux, no /proc, a kernel that
 * refuses the write) nothing changes and adk runs as before: the reason is returned, and
 * `adk --debug` prints it.
 */
export function scrubEnvironBlock(isSecret: (name: string, value: string) => boolean, env: NodeJS.ProcessEnv = process.env): ScrubOutcome {
  const secrets = new Set<string>();
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (value && isSecret(name, value)) secrets.add(value);
  }
  if (!secrets.size) return { scrubbed: [] };
  if (process.platform !== 'linux') return { failed: `${process.platform} has no /proc/self/environ to clear` };
  // Every variable whose bytes are cleared, with its value: a secret by name or a copy of one under another name.
  const saved = new Map<string, string>();
  let fd: number | undefined;
  try {
    const block = readFileSync('/proc/self/environ');
    const start = envStart(block.length);
    if (start === undefined) return { failed: 'the kernel does not say where the environment block is' };
    const spans: Array<[number, number]> = [];
    for (let at = 0; at < block.length; ) {
      let end = block.indexOf(0, at);
      if (end < 0) end = block.length;
      const eq = block.indexOf(0x3d, at); // '='
      if (eq > at && eq < end && end > eq + 1) {
        const name = block.toString('utf8', at, eq);
        const value = block.toString('utf8', eq + 1, end);
        // A copy inside another value (DB_URL=postgres://u:<key>@h) goes too.
        if (secrets.has(value) || isSecret(name, value) || [...secrets].some((x) => x.length >= 8 && value.includes(x))) {
          spans.push([eq + 1, end]);
          const now = env[name];
          if (now !== undefined) saved.set(name, now);
        }
      }
      at = end + 1;
    }
    if (!spans.length) return { scrubbed: [] };
    // Off the block first: libc's environ must no longer point into the bytes about to be cleared.
    for (const [name, value] of saved) env[name] = value;
    fd = openSync('/proc/self/mem', 'r+');
    for (const [from, to] of spans) writeSync(fd, Buffer.alloc(to - from), 0, to - from, start + from);
  } catch (e) {
    return { failed: `the environment block could not be cleared: ${(e as Error).message}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
    // Whatever happened, the values are what they were (had libc kept pointing into the block, this puts a fresh copy back).
    for (const [name, value] of saved) if (env[name] !== value) env[name] = value;
  }
  try {
    const after = readFileSync('/proc/self/environ');
    const left = [...secrets].some((value) => after.includes(value));
    return left ? { failed: 'a secret is still in the environment block' } : { scrubbed: [...saved.keys()] };
  } catch (e) {
    return { failed: `the environment block could not be read again: ${(e as Error).message}` };
  }
}

/** Where the environment block starts (field 50 of /proc/self/stat), if its size is `size`. */
function envStart(size: number): number | undefined {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  // Fields after the command name (which may hold spaces and parentheses) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ');
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  return Number.isSafeInteger(start) && start > 0 && end - start === size ? start : undefined;
}

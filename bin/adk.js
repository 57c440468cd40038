#!/usr/bin/env node
// `adk --version` answers before anything else loads (scripts call it to probe for adk).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-v')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // The REPL's keys are its own from the first moment: typed ahead of its first frame they are
  // neither echoed above it by the terminal nor held back until Enter (Ink takes the raw mode over).
  const command = process.argv[2];
  if ((command === 'chat' || command === 'resume') && process.stdin.isTTY && process.stdout.isTTY) {
    process.stdin.setRawMode(true);
    process.once('exit', () => process.stdin.isTTY && process.stdin.setRawMode(false));
  }
  // Node 22.1+ keeps compiled code between runs (ADK's bundle is parsed once, not at every start); a no-op on Node 20.
  const { default: mod } = await import('node:module');
  mod.enableCompileCache?.();
  // React's development build costs more than the rest of the REPL; tests may still opt in.
  process.env.NODE_ENV ??= 'production';
  await import('../dist/adk/main.js');
}

#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json): Node reaches a CommonJS entry sooner than an ES module.
// `adk --version` answers before anything else loads (scripts call it to probe for adk).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-v')) {
  const { readFileSync } = require('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(require.resolve('../package.json'), 'utf8')).version}\n`);
} else {
  // The REPL's keys are its own from the first moment: typed ahead of its first frame they are
  // neither echoed above it by the terminal nor held back until Enter (Ink takes the raw mode over).
  const command = process.argv.slice(2).find((a) => !a.startsWith('-'));
  if ((command === 'chat' || command === 'resume') && process.stdin.isTTY && process.stdout.isTTY) {
    process.stdin.setRawMode(true);
    process.once('exit', () => process.stdin.isTTY && process.stdin.setRawMode(false));
  }
  require('../dist/adk/boot.cjs').boot(require('node:path').join(__dirname, '..', 'dist', 'adk'));
}

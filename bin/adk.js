#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json): Node reaches a CommonJS entry sooner than an ES module.
// `adk --version` answers before anything else loads (scripts call it to probe for adk).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-v')) {
  const { readFileSync } = require('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(require.resolve('../package.json'), 'utf8')).version}\n`);
} else {
  require('../dist/adk/boot.cjs').boot(require('node:path').join(__dirname, '..', 'dist', 'adk'));
}

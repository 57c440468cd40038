#!/usr/bin/env node
// React's development build costs more than the rest of the REPL; tests may still opt in.
process.env.NODE_ENV ??= 'production';
await import('../dist/cli/main.js');

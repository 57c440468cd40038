#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
cat > greet.js <<'EOF'
const args = process.argv.slice(2);
const shout = args.includes('--shout');
const name = args.filter((a) => a !== '--shout')[0] ?? 'world';
const text = `Hello, ${name}!`;
console.log(shout ? text.toUpperCase() : text);
EOF

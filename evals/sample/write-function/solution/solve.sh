#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
cat > pal.js <<'EOF'
function isPalindrome(text) {
  const s = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return s === [...s].reverse().join('');
}
module.exports = { isPalindrome };
EOF

#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
grep -o 'process\.env\.[A-Z_]*' config.js | sed 's/process\.env\.//' | sort -u | sed 's/$/=/' > .env.example

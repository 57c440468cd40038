#!/bin/bash
# The verifier: reward 1 when the check holds, else 0 (Harbor reads $LOGS/verifier/reward.txt).
LOGS="${LOGS_DIR:-/logs}/verifier"
mkdir -p "$LOGS"
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
if ( node -e "const c=JSON.parse(require('fs').readFileSync('config.json','utf8'));process.exit(c.port===8080&&c.host==='localhost'&&JSON.stringify(c.features)==='[\"a\",\"b\"]'?0:1)"); then echo 1 > "$LOGS/reward.txt"; else echo 0 > "$LOGS/reward.txt"; fi

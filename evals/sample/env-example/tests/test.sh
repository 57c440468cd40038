#!/bin/bash
# The verifier: reward 1 when the check holds, else 0 (Harbor reads $LOGS/verifier/reward.txt).
LOGS="${LOGS_DIR:-/logs}/verifier"
mkdir -p "$LOGS"
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
if ( printf 'API_KEY=\nDATABASE_URL=\nDEBUG=\nPORT=\n' | diff - .env.example); then echo 1 > "$LOGS/reward.txt"; else echo 0 > "$LOGS/reward.txt"; fi

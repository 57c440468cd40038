#!/bin/bash
# The verifier: reward 1 when the check holds, else 0 (Harbor reads $LOGS/verifier/reward.txt).
LOGS="${LOGS_DIR:-/logs}/verifier"
mkdir -p "$LOGS"
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
if ( printf 'src/a.js: 3 lines\nsrc/util/b.js: 1 lines\nsrc/util/c.js: 2 lines\n' | diff - report.md); then echo 1 > "$LOGS/reward.txt"; else echo 0 > "$LOGS/reward.txt"; fi

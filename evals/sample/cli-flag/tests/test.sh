#!/bin/bash
# The verifier: reward 1 when the check holds, else 0 (Harbor reads $LOGS/verifier/reward.txt).
LOGS="${LOGS_DIR:-/logs}/verifier"
mkdir -p "$LOGS"
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
if ( [ "$(node greet.js --shout Ada)" = 'HELLO, ADA!' ] && [ "$(node greet.js Ada)" = 'Hello, Ada!' ] && [ "$(node greet.js Bob --shout)" = 'HELLO, BOB!' ]); then echo 1 > "$LOGS/reward.txt"; else echo 0 > "$LOGS/reward.txt"; fi

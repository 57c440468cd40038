#!/bin/bash
# The verifier: reward 1 when the check holds, else 0 (Harbor reads $LOGS/verifier/reward.txt).
LOGS="${LOGS_DIR:-/logs}/verifier"
mkdir -p "$LOGS"
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
if ( node -e "const {isPalindrome:p}=require('./pal');process.exit(p('A man, a plan, a canal: Panama')&&p('racecar')&&!p('hello')&&p('')?0:1)"); then echo 1 > "$LOGS/reward.txt"; else echo 0 > "$LOGS/reward.txt"; fi

#!/bin/bash
# The verifier: reward 1 when the check holds, else 0 (Harbor reads $LOGS/verifier/reward.txt).
LOGS="${LOGS_DIR:-/logs}/verifier"
mkdir -p "$LOGS"
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
if ( node -e "const p=require('./people.json');const want=[{name:'Ada',age:36},{name:'Grace',age:45},{name:'Linus',age:28}];process.exit(JSON.stringify(p)===JSON.stringify(want)?0:1)"); then echo 1 > "$LOGS/reward.txt"; else echo 0 > "$LOGS/reward.txt"; fi

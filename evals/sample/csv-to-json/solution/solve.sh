#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
node -e "const fs=require('fs');const [h,...rows]=fs.readFileSync('people.csv','utf8').trim().split('\n');fs.writeFileSync('people.json',JSON.stringify(rows.map(r=>{const [name,age]=r.split(',');return {name,age:Number(age)}})))"

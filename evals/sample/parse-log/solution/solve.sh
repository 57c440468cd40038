#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
grep '^ERROR ' app.log | awk '{print $2}' | sort | uniq -c | awk '{print $2" "$1}' > errors.txt

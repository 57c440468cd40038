#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
tr -cs 'A-Za-z' '\n' < input.txt | tr 'A-Z' 'a-z' | grep -v '^$' | sort -u > words.txt

#!/bin/bash
set -euo pipefail
# Harbor's oracle runs this in the task's working folder (/app in its container).
[ -d /app ] && [ -z "${LOGS_DIR:-}" ] && cd /app
sed -i 's/getUser/fetchUser/g' users.js service.js

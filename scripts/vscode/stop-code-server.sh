#!/bin/bash
# Stops the code-server started by start-code-server.sh RUN: its process group, by recorded PID.
# Usage: stop-code-server.sh RUN
RUN=${1:?usage: stop-code-server.sh RUN}
PID=$(cat "$RUN/code-server.pid" 2>/dev/null) || exit 0
kill -TERM -- "-$PID" 2>/dev/null || kill -TERM "$PID" 2>/dev/null
for _ in $(seq 1 20); do kill -0 "$PID" 2>/dev/null || break; sleep 0.25; done
kill -KILL -- "-$PID" 2>/dev/null || true
rm -f "$RUN/code-server.pid"

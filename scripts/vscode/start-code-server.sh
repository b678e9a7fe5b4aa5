#!/bin/bash
# Starts code-server (real VS Code) on 127.0.0.1:PORT with no auth and isolated user-data,
# extensions and XDG dirs under RUN, then waits until /healthz answers.
# Usage: start-code-server.sh RUN PORT WORKSPACE [extra code-server args...]
# Writes RUN/code-server.pid (process group leader) and RUN/code-server.log.
# Env: CODE_SERVER (binary; default from REPORECALL_CS_DIR as install.sh uses it); WORKSPACE_TRUST=1
#      leaves workspace trust on (RUN/data/User/settings.json then written by the caller).
set -euo pipefail
RUN=${1:?usage: start-code-server.sh RUN PORT WORKSPACE [args]}; PORT=${2:?port}; WS=${3:?workspace}; shift 3
CS=${CODE_SERVER:-${REPORECALL_CS_DIR:-$HOME/.cache/reporecall/code-server}/node_modules/.bin/code-server}
[ -x "$CS" ] || { echo "code-server not found at $CS: run scripts/vscode/install.sh" >&2; exit 1; }
mkdir -p "$RUN/data/User" "$RUN/exts"
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$RUN/config.yaml"
# Quiet, deterministic workbench: no welcome page, no update checks, no word-based suggest popups
# covering the ghost text, fast hovers, trusted workspace (tests run their own code), and no
# built-in git extension (its `git check-ignore` pipes broke as test workspaces were rewritten, and
# the EPIPE surfaced as an uncaught error in the extension host's test runner).
[ -f "$RUN/data/User/settings.json" ] || cat > "$RUN/data/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "editor.inlineSuggest.enabled": true,
  "editor.quickSuggestions": { "other": false, "comments": false, "strings": false },
  "editor.suggestOnTriggerCharacters": false,
  "editor.hover.delay": 150,
  "files.autoSave": "off",
  "files.hotExit": "off",
  "chat.commandCenter.enabled": false,
  "git.enabled": false
}
JSON
# RUN/settings.extra.json (optional): settings a run adds to the ones above.
if [ -f "$RUN/settings.extra.json" ]; then
  node -e 'const fs = require("fs"); const [file, extra] = process.argv.slice(1);
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, "utf8")), ...JSON.parse(fs.readFileSync(extra, "utf8")) }, null, 2));' "$RUN/data/User/settings.json" "$RUN/settings.extra.json"
fi
export XDG_CONFIG_HOME="$RUN/xdg-config" XDG_DATA_HOME="$RUN/xdg-data"
TRUST_ARGS=(--disable-workspace-trust)
[ "${WORKSPACE_TRUST:-0}" = 1 ] && TRUST_ARGS=()
start=$(date +%s%N)
setsid "$CS" --config "$RUN/config.yaml" \
  --user-data-dir "$RUN/data" --extensions-dir "$RUN/exts" \
  --disable-telemetry --disable-update-check "${TRUST_ARGS[@]}" \
  --disable-getting-started-override --ignore-last-opened \
  "$@" "$WS" > "$RUN/code-server.log" 2>&1 < /dev/null &
echo $! > "$RUN/code-server.pid"
for _ in $(seq 1 240); do
  if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then
    echo "code-server up on 127.0.0.1:$PORT (pid $(cat "$RUN/code-server.pid")) after $(( ($(date +%s%N) - start) / 1000000 )) ms"
    exit 0
  fi
  kill -0 "$(cat "$RUN/code-server.pid")" 2>/dev/null || break
  sleep 0.25
done
echo "code-server failed to start:" >&2; cat "$RUN/code-server.log" >&2; exit 1

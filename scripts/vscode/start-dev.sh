#!/bin/bash
# `npm start`: builds the extension and serves it in code-server (real VS Code in the browser) on
# http://127.0.0.1:${PORT:-8080}, on the folder given as $1 (default: a scratch copy of
# test/fixtures/workspace). Stop it with scripts/vscode/stop-code-server.sh <run dir printed below>.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
PORT=${PORT:-8080}
"$ROOT/scripts/vscode/install.sh"
[ -f grammars/wasm/tree-sitter.wasm ] || npm run --silent grammars
node esbuild.config.mjs >/dev/null
RUN=${REPORECALL_RUN_DIR:-$ROOT/.cache/code-server-dev}
mkdir -p "$RUN/exts"
if [ $# -ge 1 ]; then WS=$(cd "$1" && pwd); else WS="$RUN/workspace"; [ -d "$WS" ] || cp -r test/fixtures/workspace "$WS"; fi
EXT_ID=$(node -p "const p=require('./package.json'); p.publisher + '.' + p.name + '-' + p.version")
ln -sfn "$ROOT" "$RUN/exts/$EXT_ID"
"$ROOT/scripts/vscode/stop-code-server.sh" "$RUN"
"$ROOT/scripts/vscode/start-code-server.sh" "$RUN" "$PORT" "$WS"
echo "open http://127.0.0.1:$PORT/?folder=$WS   (stop: scripts/vscode/stop-code-server.sh $RUN)"

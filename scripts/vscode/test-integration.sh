#!/bin/bash
# `npm run test:integration`: the extension in a real VS Code (code-server), end to end.
#   1. installs what is missing (apt: chromium, ripgrep, ...; npm: code-server, repo deps)
#   2. builds dist/ (esbuild), the grammars and the model if absent, compiles the test suites
#   3. runs the mocha suites inside the extension host against a fresh copy of
#      test/fixtures/workspace, then the playwright UI test against another fresh copy
# Screenshots go to test-output/screenshots/. The last line is `N passed, M failed`; exit status
# is non-zero when anything failed.
# Env: REPORECALL_CS_DIR (code-server install dir), PORT (first of four ports, default 18370),
#      WITH_VSIX=1 also runs the UI test on the installed linux-x64 VSIX (+~40 s; scripts/test.sh,
#      which CI runs, sets it), packaging it first unless VSIX names one already built,
#      SKIP_BUILD=1 uses dist/ as it is, KEEP=1 keeps the temporary run directories (code-server logs) for inspection,
#      SKIP_LATEST=1 leaves out the MCP suite in code-server 4.139.1 (test-mcp-vscode.sh).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/scripts/vscode"
cd "$ROOT"
PORT=${PORT:-18370}
OUT="$ROOT/test-output"
t0=$(date +%s)

"$HERE/install.sh" || { echo "0 passed, 1 failed"; exit 1; }
[ -f grammars/wasm/tree-sitter.wasm ] || npm run --silent grammars
if [ -f scripts/build-reference-model.mjs ] && [ ! -f models/reference-use-lite/tokenizer.json ]; then
  npm run --silent model:reference || { echo "model build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
[ "${SKIP_BUILD:-0}" = 1 ] || node esbuild.config.mjs --production >/dev/null || { echo "esbuild failed"; echo "0 passed, 1 failed"; exit 1; }
npx tsc -p test/integration/tsconfig.json || { echo "compiling the test suites failed"; echo "0 passed, 1 failed"; exit 1; }
echo "prepared in $(( $(date +%s) - t0 )) s"

WORK=$(mktemp -d -t reporecall-vscode-XXXXXX)
mkdir -p "$OUT"
cleanup() {
  "$HERE/stop-code-server.sh" "$WORK/api"
  "$HERE/stop-code-server.sh" "$WORK/ui"
  "$HERE/stop-code-server.sh" "$WORK/vsix"
  "$HERE/stop-code-server.sh" "$WORK/untrusted"
  if [ "${KEEP:-0}" = 1 ]; then echo "run directories kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
status=0

# 1) mocha suites inside the extension host; the extension is loaded as a development extension.
#    A stand-in for GitHub Copilot is installed beside it (copilot.test), its ghost text off until that suite turns it on.
mkdir -p "$WORK/api/exts"; cp -r test/fixtures/workspace "$WORK/api/ws"
cp -r test/fixtures/copilot-standin "$WORK/api/exts/github.copilot-0.0.1"
echo '{ "github.copilot.enable": { "*": false } }' > "$WORK/api/settings.extra.json"
REPORECALL_TEST_RESULTS="$WORK/api-results.json" "$HERE/start-code-server.sh" "$WORK/api" "$PORT" "$WORK/api/ws" || status=1
if [ $status -eq 0 ]; then
  node "$HERE/run-ext-tests.mjs" "$PORT" "$ROOT" "$ROOT/out/test/integration/index.js" "$WORK/api/ws" 600 || status=1
fi
"$HERE/stop-code-server.sh" "$WORK/api"
cp "$WORK/api/code-server.log" "$OUT/code-server-integration.log" 2>/dev/null

# 2) UI test: the extension installed the way a user has it (a folder in the extensions dir).
EXT_ID=$(node -p "const p=require('./package.json'); p.publisher + '.' + p.name + '-' + p.version")
mkdir -p "$WORK/ui/exts"; ln -s "$ROOT" "$WORK/ui/exts/$EXT_ID"; cp -r test/fixtures/workspace "$WORK/ui/ws"
if "$HERE/start-code-server.sh" "$WORK/ui" "$((PORT + 1))" "$WORK/ui/ws"; then
  node out/test/e2e/ui.e2e.js "http://127.0.0.1:$((PORT + 1))/?folder=$WORK/ui/ws" "$OUT/screenshots" "$WORK/ui-results.json" || status=1
else
  status=1
fi
"$HERE/stop-code-server.sh" "$WORK/ui"
cp "$WORK/ui/code-server.log" "$OUT/code-server-e2e.log" 2>/dev/null

# 2b) An untrusted workspace (trust on, its prompt unanswered) whose settings name a team index:
#     the extension runs in restricted mode and nothing connects to that server.
mkdir -p "$WORK/untrusted"; cp -r test/fixtures/workspace "$WORK/untrusted/ws"
node out/test/e2e/untrusted.e2e.js "$WORK/untrusted" "$((PORT + 3))" "$WORK/untrusted/ws" "$WORK/untrusted-results.json" || status=1
cp "$WORK/untrusted/code-server.log" "$OUT/code-server-untrusted.log" 2>/dev/null

# 2c) The MCP server offered to VS Code 1.101+ (mcpServerDefinitionProviders), in code-server 4.139.1
#     on Node 24 (test-mcp-vscode.sh installs both from npm, cached), on the first port (free again).
if [ "${SKIP_LATEST:-0}" != 1 ]; then
  SKIP_BUILD=1 PORT=$PORT LATEST_RESULTS="$WORK/latest-results.json" "$HERE/test-mcp-vscode.sh" | grep -vE '^[0-9]+ passed, [0-9]+ failed' || status=1
fi

# 3) Optional (WITH_VSIX=1): package the VSIX, install it with code-server --install-extension and
#    run the UI test against the installed copy (checks the packaged layout: natives, grammars, model).
if [ "${WITH_VSIX:-0}" = 1 ]; then
  VSIX_FILE=${VSIX:-}
  if [ -z "$VSIX_FILE" ]; then
    PKG_OUT=$(bash "$HERE/package.sh") || { echo "$PKG_OUT" | tail -20; echo "packaging the VSIX failed"; }
    VSIX_FILE=$(echo "$PKG_OUT" | tail -1 | grep -oE '^reporecall-[^:]+\.vsix' || true)
  fi
  # No VSIX: the suites below report no results, which counts as their failure.
  [ -n "$VSIX_FILE" ] && [ -f "$VSIX_FILE" ] || { echo "no VSIX to install (${VSIX_FILE:-none})"; VSIX_FILE=; status=1; }
fi
if [ -n "${VSIX_FILE:-}" ]; then
  CS_BIN=${CODE_SERVER:-${REPORECALL_CS_DIR:-$HOME/.cache/reporecall/code-server}/node_modules/.bin/code-server}
  mkdir -p "$WORK/vsix/exts" "$WORK/vsix/data"; cp -r test/fixtures/workspace "$WORK/vsix/ws"
  XDG_CONFIG_HOME="$WORK/vsix/xdg" XDG_DATA_HOME="$WORK/vsix/xdg" "$CS_BIN" --extensions-dir "$WORK/vsix/exts" \
    --user-data-dir "$WORK/vsix/data" --install-extension "$(realpath "$VSIX_FILE")" | tail -1
  if "$HERE/start-code-server.sh" "$WORK/vsix" "$((PORT + 2))" "$WORK/vsix/ws"; then
    node out/test/e2e/ui.e2e.js "http://127.0.0.1:$((PORT + 2))/?folder=$WORK/vsix/ws" "$OUT/screenshots-vsix" "$WORK/vsix-results.json" || status=1
  else
    status=1
  fi
  "$HERE/stop-code-server.sh" "$WORK/vsix"
  # The engine runs without onnxruntime where it cannot load it (darwin-x64 ships none), so a
  # linux-x64 VSIX whose runtime fails to load would still pass the UI test on lexical hits alone:
  # its log must show the shipped model in use and no "ONNX runtime is not available".
  node -e '
    const fs = require("fs"), path = require("path");
    const text = [];
    const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (e.name.endsWith(".log")) text.push(fs.readFileSync(p, "utf8")); } };
    walk(process.argv[1]);
    const log = text.join("\n");
    const r = { passed: [], failed: [] };
    const check = (title, ok, error) => (ok ? r.passed.push({ title }) : r.failed.push({ title, error }));
    const indexed = log.match(/indexed \d+ files.*; embedding model (\S+)/);
    check("the installed VSIX indexes with the shipped model (onnxruntime loaded)", !!indexed && /models[\/\\]reporecall-code$/.test(indexed[1]), indexed ? indexed[0] : "no \"indexed ... embedding model\" line in the logs");
    const warned = log.match(/the ONNX runtime is not available[^\n]*/);
    check("the installed VSIX does not warn about the ONNX runtime", !warned, warned ? warned[0] : "");
    fs.writeFileSync(process.argv[2], JSON.stringify(r));
  ' "$WORK/vsix/data" "$WORK/vsix-model-results.json"
fi

# Totals over the suites; a suite that produced no results file counts as one failure.
node -e '
  let pass = 0, fail = 0;
  const suites = [["integration", process.argv[1]], ["e2e", process.argv[2]], ["e2e (untrusted)", process.argv[7]]];
  if (process.argv[9] !== "1") suites.push(["integration (code-server 4.139.1)", process.argv[8]]);
  if (process.argv[4] === "1") suites.push(["e2e (installed VSIX)", process.argv[5]], ["installed VSIX model", process.argv[6]]);
  for (const [name, f] of suites) {
    try { const r = require(f); pass += r.passed.length; fail += r.failed.length;
      for (const x of r.failed) console.log(`FAILED ${name}: ${x.title}\n  ${x.error.split("\n").slice(0, 3).join("\n  ")}`); }
    catch { fail += 1; console.log(`FAILED ${name}: the suite did not report results`); }
  }
  console.log(`runtime ${Math.round((Date.now() / 1000) - Number(process.argv[3]))} s; screenshots in test-output/screenshots`);
  console.log(`${pass} passed, ${fail} failed`);
  process.exit(fail ? 1 : 0);
' "$WORK/api-results.json" "$WORK/ui-results.json" "$t0" "${WITH_VSIX:-0}" "$WORK/vsix-results.json" "$WORK/vsix-model-results.json" "$WORK/untrusted-results.json" "$WORK/latest-results.json" "${SKIP_LATEST:-0}" || status=1
exit $status

#!/bin/bash
# Everything a fresh machine needs to build and run RepoRecall from this checkout, from the npm
# registry only. Idempotent: a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
# onnxruntime-node's postinstall downloads GPU files (unreachable here, unneeded: its CPU binary is
# in the package). npm 11 also skips it through package.json's allowScripts; older npm needs this.
export ONNXRUNTIME_NODE_INSTALL=skip
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
# hnswlib-node (dev: the vector bench's HNSW baseline) is a native addon; make sure it was built.
[ -f node_modules/hnswlib-node/build/Release/addon.node ] || (cd node_modules/hnswlib-node && npx --yes node-gyp rebuild >/dev/null)
[ -f grammars/wasm/tree-sitter.wasm ] || npm run --silent grammars
# The USE-Lite reference model (the bench's `dense-ref` baseline, and the fallback model).
[ -f models/reference-use-lite/tokenizer.json ] || npm run --silent model:reference
npm run --silent compile
echo "setup: done in $(( $(date +%s) - t0 )) s"

#!/bin/bash
# `npm run package`: a linux-x64 VSIX (reporecall-<version>-linux-x64.vsix) holding the bundled
# extension + worker, the tree-sitter grammars, the embedding model and only the linux-x64 native
# binaries of onnxruntime-node (.vscodeignore drops everything else).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
[ -f grammars/wasm/tree-sitter.wasm ] || npm run --silent grammars
node esbuild.config.mjs --production
VERSION=$(node -p "require('./package.json').version")
OUT="reporecall-$VERSION-linux-x64.vsix"
# --allow-missing-repository: the package is built offline with no
# repository URL; --skip-license: the license is declared in package.json ("license": "MIT").
npx vsce package --target linux-x64 --out "$OUT" --allow-missing-repository --skip-license 2>&1 | grep -v '^npm warn'
SIZE=$(stat -c %s "$OUT")
echo "$OUT: $((SIZE / 1024 / 1024)) MB ($SIZE bytes)"
[ "$SIZE" -le $((40 * 1024 * 1024)) ] || { echo "VSIX is over the 40 MB budget" >&2; exit 1; }

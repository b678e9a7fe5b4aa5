#!/bin/bash
# `npm run package [-- --target T]`: a platform VSIX (reporecall-<version>-<T>.vsix, vsce's
# `--target`; default linux-x64) holding the bundled extension + worker, the tree-sitter grammars,
# the embedding model and only T's native binaries of onnxruntime-node: .vscodeignore leaves out
# every platform's, scripts/vscode/targets.cjs writes the ignore file that puts T's back.
# Targets: linux-x64 linux-arm64 darwin-arm64 darwin-x64 win32-x64. darwin-x64 has no onnxruntime
# binary (none exists for it since onnxruntime-node 1.24): its VSIX holds no native file and no
# model, and the engine runs there without the dense signal, saying so once (targets.cjs).
# `--target all` builds the five in turn.
# The VSIX is then checked (its own natives only, grammars, model unless it has no runtime, dist/,
# <= 40 MB); the last line printed is `FILE: N MB (BYTES bytes)` (test-integration.sh reads the
# file name from it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TARGET=linux-x64
while [ $# -gt 0 ]; do
  case "$1" in
    --target) TARGET=${2:?--target needs a value}; shift 2 ;;
    --target=*) TARGET=${1#--target=}; shift ;;
    *) echo "usage: npm run package [-- --target linux-x64|linux-arm64|darwin-arm64|darwin-x64|win32-x64|all]" >&2; exit 2 ;;
  esac
done
if [ "$TARGET" = all ]; then
  ALL=$(node scripts/vscode/targets.cjs targets)
  for t in $ALL; do bash "$0" --target "$t"; done
  exit 0
fi

IGNORE=$(mktemp -t reporecall-vscodeignore-XXXXXX)
trap 'rm -f "$IGNORE"' EXIT
# Fails (with the reason) for an unknown target, or natives missing from node_modules, before anything is built.
node scripts/vscode/targets.cjs ignore-file "$TARGET" "$IGNORE"

[ -f grammars/wasm/tree-sitter.wasm ] || npm run --silent grammars
node esbuild.config.mjs --production
VERSION=$(node -p "require('./package.json').version")
OUT="reporecall-$VERSION-$TARGET.vsix"
# --allow-missing-repository: the package is built offline with no
# repository URL; --skip-license: the license is declared in package.json ("license": "MIT").
npx vsce package --target "$TARGET" --ignoreFile "$IGNORE" --out "$OUT" --allow-missing-repository --skip-license 2>&1 | grep -v '^npm warn'
node scripts/vscode/targets.cjs check "$TARGET" "$OUT"
SIZE=$(stat -c %s "$OUT")
echo "$OUT: $((SIZE / 1024 / 1024)) MB ($SIZE bytes)"

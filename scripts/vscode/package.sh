#!/bin/bash
# `npm run package [-- --target T]`: a platform VSIX (reporecall-<version>-<T>.vsix, vsce's
# `--target`; default linux-x64) holding the bundled extension + worker, the tree-sitter grammars,
# the embedding model and only T's native binaries of onnxruntime-node: .vscodeignore leaves out
# every platform's, scripts/vscode/targets.cjs writes the ignore file that puts T's back.
# Targets: linux-x64 linux-arm64 darwin-arm64 darwin-x64 win32-x64. darwin-x64 has no onnxruntime
# binary (none exists for it since onnxruntime-node 1.24): its VSIX holds no native file and no
# model, and the engine runs there without the dense signal, saying so once (targets.cjs).
# `--target all` builds dist/ once, then the five, two at a time; it goes on past a target that fails and
# exits non-zero if any did (one line per target: `FILE: N MB (BYTES bytes)` or `FAILED T`).
# README.md and CHANGELOG.md go in rewritten (scripts/vscode/vsixMarkdown.cjs): each relative link
# becomes plain text, or with `--base-url URL` (the publisher's repository, e.g.
# https://github.com/OWNER/REPO/blob/main) an absolute link; vsce refuses relative links otherwise.
# Each VSIX is then checked (targets.cjs checkVsix: its own natives only, grammars, model unless it
# has no runtime, dist/, LICENSE, no junk, the target's size bound, no dead link in its Markdown);
# the last line printed is `FILE: N MB (BYTES bytes)` (test-integration.sh reads the file name).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TARGET=linux-x64
BASE_URL=
usage="usage: npm run package [-- --target linux-x64|linux-arm64|darwin-arm64|darwin-x64|win32-x64|all] [--base-url URL]"
while [ $# -gt 0 ]; do
  case "$1" in
    --target) TARGET=${2:?--target needs a value}; shift 2 ;;
    --target=*) TARGET=${1#--target=}; shift ;;
    --base-url) BASE_URL=${2:?--base-url needs a value}; shift 2 ;;
    --base-url=*) BASE_URL=${1#--base-url=}; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
case "$BASE_URL" in ''|https://*) ;; *) echo "--base-url must be an https:// URL (got \"$BASE_URL\")" >&2; exit 2 ;; esac

build_dist() {
  [ -f grammars/wasm/tree-sitter.wasm ] || npm run --silent grammars
  node esbuild.config.mjs --production
}

if [ "$TARGET" = all ]; then
  t0=$(date +%s)
  build_dist
  # Two at a time (one vsce run keeps about one core busy), each into its own log, printed in
  # target order.
  LOGS=$(mktemp -d -t reporecall-package-XXXXXX)
  trap 'rm -rf "$LOGS"' EXIT
  ALL=$(node scripts/vscode/targets.cjs targets)
  printf '%s\n' $ALL | PACKAGE_SKIP_BUILD=1 xargs -P 2 -I{} sh -c \
    'bash "$1" --target "$2" ${3:+--base-url "$3"} > "$4/$2.log" 2>&1; echo $? > "$4/$2.rc"' _ "$0" {} "$BASE_URL" "$LOGS" || true
  failed=()
  for t in $ALL; do
    cat "$LOGS/$t.log"
    [ "$(cat "$LOGS/$t.rc" 2>/dev/null)" = 0 ] || { failed+=("$t"); echo "FAILED $t"; }
  done
  echo "packaging every target took $(( $(date +%s) - t0 )) s"
  [ ${#failed[@]} -eq 0 ] || { echo "packaging failed for: ${failed[*]}" >&2; exit 1; }
  exit 0
fi

IGNORE=$(mktemp -t reporecall-vscodeignore-XXXXXX)
# The rewritten README and CHANGELOG: inside the root, where vsce collects files from.
DOCS=$(mktemp -d -p "$ROOT" .vsix-docs-XXXXXX)
trap 'rm -rf "$IGNORE" "$DOCS"' EXIT
DOCS_REL=${DOCS#"$ROOT"/}
# Fails (with the reason) for an unknown target, or natives missing from node_modules, before anything is built.
node scripts/vscode/targets.cjs ignore-file "$TARGET" "$IGNORE"
node scripts/vscode/vsixMarkdown.cjs write README.md "$DOCS/README.md" "$BASE_URL"
CHANGELOG_ARGS=()
if [ -f CHANGELOG.md ]; then
  node scripts/vscode/vsixMarkdown.cjs write CHANGELOG.md "$DOCS/CHANGELOG.md" "$BASE_URL"
  CHANGELOG_ARGS=(--changelog-path "$DOCS_REL/CHANGELOG.md")
  # vsce keeps the --readme-path file of itself; the changelog needs its way back in past `.*/**`.
  printf '\n!%s/CHANGELOG.md\n' "$DOCS_REL" >> "$IGNORE"
fi

[ "${PACKAGE_SKIP_BUILD:-0}" = 1 ] || build_dist
VERSION=$(node -p "require('./package.json').version")
OUT="reporecall-$VERSION-$TARGET.vsix"
rm -f "$OUT"
# --allow-missing-repository: the package is built offline with no repository URL (the links it
# would have served are rewritten above); --no-rewrite-relative-links: they are, by a Markdown
# parser, where vsce's regex would also rewrite or refuse link syntax inside code.
npx vsce package --target "$TARGET" --ignoreFile "$IGNORE" --out "$OUT" --allow-missing-repository --no-rewrite-relative-links \
  --readme-path "$DOCS_REL/README.md" "${CHANGELOG_ARGS[@]}" 2>&1 | { grep -v '^npm warn' || true; }
# A VSIX that fails its check is removed: nobody should ship it by mistake.
node scripts/vscode/targets.cjs check "$TARGET" "$OUT" || { rm -f "$OUT"; echo "$OUT failed its check and was removed" >&2; exit 1; }
SIZE=$(stat -c %s "$OUT")
echo "$OUT: $((SIZE / 1024 / 1024)) MB ($SIZE bytes)"

#!/bin/bash
# The product on its embedded defaults: set-up, then RepoRecall in a real VS Code (code-server) on
# FOLDER (default: a sample workspace), at http://127.0.0.1:${PORT:-8080}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec npm start --silent -- "$@"

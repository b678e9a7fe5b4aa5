#!/bin/bash
# Fits the engine's fusion weights (hybrid.ts DEFAULT_WEIGHTS) for the model in MODEL_DIR
# (default: the shipped one) on the fusion-fit split: corpus files the trainer did not take, from
# seven training packages, so neither training data nor evaluation data. Prints the fitted weights
# and protocol A MRR@10 before and after (leave-one-repository-out). See training/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL_DIR=${1:-models/reporecall-code}
CACHE=${REPORECALL_TRAIN_CACHE:-$HOME/.cache/reporecall-train}
SPLIT=$CACHE/fusion-fit
/usr/bin/python3 training/make-validation-split.py --out "$SPLIT" \
  --sources "npm:effect,npm:openai,debian:python3-pandas,debian:python3-torch,debian:python3-sklearn,debian:python3-scipy,debian:python3-networkx"
npx tsc -p .
node out/test/bench/run.js --split "$SPLIT" --model "$MODEL_DIR" --systems engine \
  --dump-features "$SPLIT/features.jsonl" --out "$SPLIT/bench.json"
/usr/bin/python3 training/fit-fusion.py --fit "$SPLIT/features.jsonl" \
  --features rrf,rel:dense,rel:bm25,rel:recent --nonneg --fix rrf:symbol,rrf:normalized

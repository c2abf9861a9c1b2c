#!/usr/bin/env bash
# Trains the learned sentiment model from the shared SemEval data and writes its weights into
# crates/hark-enrich/src/sentiment/ (model.bin, model_meta.rs). `CHECK=1` instead compares a fresh
# run with the shipped weights and fails when they differ. `HOLDOUT=1` adds the held-out check (a
# second fit without half of the 2016 tweets, scored on them); `BASELINE=1` the issue's baseline.
#
# Data: HARK_SENTIMENT_DATA, by default ../shared/data/sentiment-semeval-2013-2016 next to the
# repository. Python packages go into target/train-venv (from PyPI, once).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${HARK_SENTIMENT_DATA:-../shared/data/sentiment-semeval-2013-2016}
for f in train.tsv dev.tsv; do
  if [ ! -f "$DATA/$f" ]; then
    echo "train-sentiment: $DATA/$f not found (set HARK_SENTIMENT_DATA to the folder holding train.tsv and dev.tsv)" >&2
    exit 2
  fi
done
VENV=target/train-venv
if ! "$VENV/bin/python" -c 'import sklearn' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet scikit-learn==1.9.1 numpy==2.4.6 scipy==1.17.1
fi
cargo build --release -q -p hark-enrich --example sentiment_features
WORK=target/train-sentiment
mkdir -p "$WORK"
target/release/examples/sentiment_features "$DATA/train.tsv" > "$WORK/train.features"
target/release/examples/sentiment_features "$DATA/dev.tsv" > "$WORK/dev.features"
ARGS=()
if [ "${CHECK:-0}" = 1 ]; then ARGS+=(--check); fi
if [ "${HOLDOUT:-0}" = 1 ]; then ARGS+=(--holdout); fi
"$VENV/bin/python" scripts/train_sentiment.py "$WORK/train.features" "$WORK/dev.features" \
  crates/hark-enrich/src/sentiment "${ARGS[@]}"
if [ "${BASELINE:-0}" = 1 ]; then
  "$VENV/bin/python" scripts/sentiment_baseline.py "$DATA/train.tsv" "$DATA/dev.tsv"
fi

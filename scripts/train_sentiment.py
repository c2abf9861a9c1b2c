#!/usr/bin/env python3
"""Trains Hark's learned sentiment model (run by `make train-sentiment`).

The features come from the Rust code the model runs with (`sentiment_features` example of
hark-enrich), so training and inference cannot disagree on a token. This script fits a
multinomial logistic regression on them and writes the weights Hark compiles in:

  crates/hark-enrich/src/sentiment/model.bin      per bucket [w_neg, w_neu, w_pos] (f32 LE), then
                                                  the dense weights (3 x 12) and intercepts (3)
  crates/hark-enrich/src/sentiment/model_meta.rs  version, hash size, the strong buckets' edges and
                                                  the validation figures

The class is the most probable one (the classes are balanced in training, so nothing is tuned on
the validation set for it); only where the strong buckets begin is read off the validation set.

Usage: train_sentiment.py TRAIN.features DEV.features OUT_DIR [--bits N] [--check] [--holdout]
With --check it writes nothing and exits non-zero when the shipped weights differ from a fresh
run's by more than a small tolerance. With --holdout it also fits the model without a fixed random
half of the 2016 training tweets and scores that half: a second validation, on tweets that were
tuned on nothing, which also compares the earlier rule (two thresholds on P(pos) - P(neg) chosen
on dev.tsv).
"""
import argparse
import hashlib
import math
import os
import sys

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.linear_model import LogisticRegression

CLASSES = ["negative", "neutral", "positive"]
DENSE = 12
DENSE_SCALE = 1.0
# Tweets of the 2016 sets (ids from mid-2015 on) are closest to what the validation set and
# today's posts look like; they count double.
RECENT_ID = 600_000_000_000_000_000
RECENT_WEIGHT = 2.0
C = 2.0


def read(path, bits, source_bits):
    ids, labels, dense, rows, cols, vals = [], [], [], [], [], []
    shift = source_bits - bits
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            parts = line.split()
            ids.append(int(parts[0]))
            labels.append(CLASSES.index(parts[1]))
            dense.append([float(x) for x in parts[2 : 2 + DENSE]])
            merged = {}
            for item in parts[2 + DENSE :]:
                b, c = item.split(":")
                b = int(b) >> shift
                merged[b] = merged.get(b, 0) + int(c)
            for b, c in merged.items():
                rows.append(n)
                cols.append(b)
                vals.append(c)
    counts = csr_matrix((np.array(vals, dtype=np.float64), (rows, cols)), shape=(len(ids), 1 << bits))
    return np.array(ids), np.array(labels), np.array(dense), counts


def transform(counts, dense):
    """Sublinear term counts (1 + ln n), L2-normalised, then the dense block. No idf: it weighs
    rare n-grams up, which fit the training tweets and carried over worse to held-out ones."""
    x = counts.copy().tocsr()
    x.data = 1.0 + np.log(x.data)
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    x = csr_matrix(x.multiply(1.0 / norms[:, np.newaxis]))
    return hstack([x, csr_matrix(dense * DENSE_SCALE)]).tocsr()


def recalls(y, pred):
    return [float(np.mean(pred[y == k] == k)) for k in range(3)]


def decide(d, t2, t3):
    return np.where(d < t2, 0, np.where(d < t3, 1, 2))


def classes(p):
    """The most probable class; a tie goes to neutral (as the Rust side decides)."""
    neg, neu, pos = p[:, 0], p[:, 1], p[:, 2]
    return np.where((neg > neu) & (neg > pos), 0, np.where((pos > neu) & (pos > neg), 2, 1))


def strong_edges(p):
    """Where the strong buckets begin on e = P(pos) - P(neg): the median e of the dev posts the
    model calls negative, and of those it calls positive (each strong bucket holds the more
    confident half of its side)."""
    k, e = classes(p), p[:, 2] - p[:, 0]
    neg, pos = e[k == 0], e[k == 2]
    t_neg = float(np.median(neg)) if len(neg) else -0.5
    t_pos = float(np.median(pos)) if len(pos) else 0.5
    return [round(min(max(t_neg, -0.99), -0.01), 4), round(max(min(t_pos, 0.99), 0.01), 4)]


def thresholds_on(d, y):
    """The earlier rule, for comparison: two thresholds on d = P(pos) - P(neg) with the best
    macro-recall on dev."""
    grid = np.round(np.arange(-0.9, 0.901, 0.01), 2)
    best = (-1.0, 0.0, 0.0)
    for t2 in grid:
        for t3 in grid[grid > t2]:
            r = float(np.mean(recalls(y, decide(d, t2, t3))))
            if r > best[0] + 1e-12:
                best = (r, float(t2), float(t3))
    return best[1], best[2]


def fit(x, y, weights):
    model = LogisticRegression(C=C, class_weight="balanced", max_iter=5000, tol=1e-6)
    model.fit(x, y, sample_weight=weights)
    return model.coef_.astype(np.float32), model.intercept_.astype(np.float32)


def probabilities(x, coef, intercept):
    """Probabilities as the shipped f32 weights give them."""
    z = x @ coef.astype(np.float64).T + intercept.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def holdout(train_path, dev_path, bits, source_bits):
    """Fits without a fixed random half H of the 2016 training tweets and scores H, by the most
    probable class and by the earlier rule (thresholds on d chosen on dev)."""
    ids, y, dense, counts = read(train_path, bits, source_bits)
    dev_ids, dev_y, dev_dense, dev_counts = read(dev_path, bits, source_bits)
    keep = ~np.isin(ids, dev_ids)
    ids, y, dense, counts = ids[keep], y[keep], dense[keep], counts[keep]
    recent = np.where(ids >= RECENT_ID)[0]
    held = np.zeros(len(ids), dtype=bool)
    held[recent[np.random.RandomState(0).permutation(len(recent))[: len(recent) // 2]]] = True
    x = transform(counts, dense)
    coef, intercept = fit(x[~held], y[~held], np.where(ids[~held] >= RECENT_ID, RECENT_WEIGHT, 1.0))
    p_held = probabilities(x[held], coef, intercept)
    p_dev = probabilities(transform(dev_counts, dev_dense.astype(np.float32).astype(np.float64)), coef, intercept)
    t2, t3 = thresholds_on(p_dev[:, 2] - p_dev[:, 0], dev_y)
    return {
        "rows": int(held.sum()),
        "argmax": recalls(y[held], classes(p_held)),
        "thresholds": recalls(y[held], decide(p_held[:, 2] - p_held[:, 0], t2, t3)),
    }


def train(train_path, dev_path, bits, source_bits):
    ids, y, dense, counts = read(train_path, bits, source_bits)
    dev_ids, dev_y, dev_dense, dev_counts = read(dev_path, bits, source_bits)
    keep = ~np.isin(ids, dev_ids)  # a few validation tweets also sit in the training file
    ids, y, dense, counts = ids[keep], y[keep], dense[keep], counts[keep]
    n = counts.shape[0]
    x = transform(counts, dense)
    coef, intercept = fit(x, y, np.where(ids >= RECENT_ID, RECENT_WEIGHT, 1.0))
    # Validation as the shipped f32 weights score it.
    p = probabilities(transform(dev_counts, dev_dense.astype(np.float32).astype(np.float64)), coef, intercept)
    dev_recalls = recalls(dev_y, classes(p))
    t2, t3 = thresholds_on(p[:, 2] - p[:, 0], dev_y)
    tuned_recalls = recalls(dev_y, decide(p[:, 2] - p[:, 0], t2, t3))
    # The lexicon scorer alone: its compound score (the first dense feature) in the spec's buckets.
    compound = dev_dense[:, 0]
    lexicon_recalls = recalls(dev_y, np.where(compound < -0.3, 0, np.where(compound < 0.4, 1, 2)))
    return {
        "rows": int(n),
        "coef": coef,
        "intercept": intercept,
        "strong": strong_edges(p),
        "dev_recalls": dev_recalls,
        "dev_macro_recall": float(np.mean(dev_recalls)),
        "tuned_macro_recall": float(np.mean(tuned_recalls)),
        "lexicon_macro_recall": float(np.mean(lexicon_recalls)),
    }


def weights_bytes(m, bits):
    buckets = 1 << bits
    rows = np.ascontiguousarray(m["coef"][:, :buckets].T, dtype="<f4")
    dense = np.ascontiguousarray(m["coef"][:, buckets:], dtype="<f4")
    return rows.tobytes() + dense.tobytes() + np.asarray(m["intercept"], dtype="<f4").tobytes()


def meta_source(m, bits, digest):
    r = m["dev_recalls"]
    return f"""// Written by `make train-sentiment` (scripts/train_sentiment.py); do not edit.
/// The model's version: stored posts scored by another version are scored again.
pub const VERSION: &str = "lr-{digest[:12]}";
pub const HASH_BITS: u32 = {bits};
pub const DENSE_SCALE: f32 = {DENSE_SCALE};
/// P(positive) - P(negative) where the strong buckets begin (the spec's -0.7 and 0.8 edges).
pub const STRONG: [f64; 2] = [{", ".join(repr(float(t)) for t in m["strong"])}];
/// Validation (dev.tsv, 2,000 tweets, the most probable class): recall of negative, neutral and
/// positive, and their mean.
pub const DEV_RECALLS: [f64; 3] = [{r[0]!r}, {r[1]!r}, {r[2]!r}];
pub const DEV_MACRO_RECALL: f64 = {m["dev_macro_recall"]!r};
/// Training tweets the model was fitted on.
pub const TRAIN_ROWS: usize = {m["rows"]};
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("train")
    ap.add_argument("dev")
    ap.add_argument("out_dir")
    ap.add_argument("--bits", type=int, default=18)
    ap.add_argument("--source-bits", type=int, default=24, help="bits of the buckets in the feature files")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--holdout", action="store_true")
    a = ap.parse_args()
    source_bits = a.source_bits
    m = train(a.train, a.dev, a.bits, source_bits)
    blob = weights_bytes(m, a.bits)
    digest = hashlib.sha256(blob).hexdigest()
    r = m["dev_recalls"]
    print(
        f"trained on {m['rows']} tweets; dev macro-recall {m['dev_macro_recall']:.4f} "
        f"(negative {r[0]:.4f}, neutral {r[1]:.4f}, positive {r[2]:.4f}); "
        f"with thresholds on P(pos) - P(neg) tuned on dev instead {m['tuned_macro_recall']:.4f}; "
        f"strong edges {m['strong']}; lexicon scorer alone {m['lexicon_macro_recall']:.4f}"
    )
    if a.holdout:
        h = holdout(a.train, a.dev, a.bits, source_bits)
        ra, rt = h["argmax"], h["thresholds"]
        print(
            f"held out ({h['rows']} tweets of 2016, fitted without them): most probable class "
            f"{np.mean(ra):.4f} (negative {ra[0]:.4f}, neutral {ra[1]:.4f}, positive {ra[2]:.4f}); "
            f"thresholds tuned on dev {np.mean(rt):.4f} (negative {rt[0]:.4f}, neutral {rt[1]:.4f}, positive {rt[2]:.4f})"
        )
    bin_path = os.path.join(a.out_dir, "model.bin")
    if a.check:
        shipped = np.frombuffer(open(bin_path, "rb").read(), dtype="<f4")
        fresh = np.frombuffer(blob, dtype="<f4")
        if shipped.shape != fresh.shape:
            sys.exit(f"shipped weights have {shipped.size} numbers, a fresh run {fresh.size}")
        diff = float(np.max(np.abs(shipped - fresh)))
        print(f"largest difference from the shipped weights: {diff:.2e}")
        if diff > 1e-3:
            sys.exit("the shipped weights differ from a fresh training run")
        return
    with open(bin_path, "wb") as f:
        f.write(blob)
    with open(os.path.join(a.out_dir, "model_meta.rs"), "w") as f:
        f.write(meta_source(m, a.bits, digest))
    print(f"wrote {bin_path} ({len(blob)} bytes) and model_meta.rs")


if __name__ == "__main__":
    main()

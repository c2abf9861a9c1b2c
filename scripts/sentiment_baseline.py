#!/usr/bin/env python3
"""The baseline Hark's learned sentiment model is measured against: a plain TF-IDF word (1-2) +
character (2-5) n-gram logistic regression fitted on train.tsv, scored on dev.tsv by macro-recall
(classes balanced, argmax, no tuning). Run by `make train-sentiment BASELINE=1`.

Usage: sentiment_baseline.py TRAIN.tsv DEV.tsv
"""
import re
import sys

import numpy as np
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def load(path):
    ids, labels, texts = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            i, label, text = line.rstrip("\n").split("\t", 2)
            ids.append(int(i))
            labels.append(label)
            texts.append(ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text))
    return np.array(ids), np.array(labels), texts


def main():
    train_ids, y, texts = load(sys.argv[1])
    dev_ids, dev_y, dev_texts = load(sys.argv[2])
    keep = ~np.isin(train_ids, dev_ids)
    y = y[keep]
    texts = [t for t, k in zip(texts, keep) if k]
    vectorizers = [
        TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True),
        TfidfVectorizer(analyzer="char", ngram_range=(2, 5), sublinear_tf=True, min_df=2),
    ]
    x = hstack([v.fit_transform(texts) for v in vectorizers]).tocsr()
    xd = hstack([v.transform(dev_texts) for v in vectorizers]).tocsr()
    model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=3000).fit(x, y)
    pred = model.predict(xd)
    recalls = {c: float(np.mean(pred[dev_y == c] == c)) for c in ("negative", "neutral", "positive")}
    macro = float(np.mean(list(recalls.values())))
    print(
        f"baseline (TF-IDF word 1-2 + char 2-5, logistic regression): dev macro-recall {macro:.4f} "
        f"(negative {recalls['negative']:.4f}, neutral {recalls['neutral']:.4f}, positive {recalls['positive']:.4f})"
    )


if __name__ == "__main__":
    main()

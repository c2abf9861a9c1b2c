#!/usr/bin/env python3
"""Reference timing for the sentiment benchmark: the vaderSentiment package (pip install
vaderSentiment) scores the same lines as crates/hark-enrich/benches/sentiment.rs.

usage: sentiment_reference.py LINES_FILE [--rounds N] [--limit N] [--scores OUT_FILE]

Prints one line of JSON: {"posts": n, "rounds": r, "median_posts_per_sec": x}. With --scores,
also writes the compound score of every line (one per line) for the bucket agreement check.
"""
import argparse
import json
import statistics
import sys
import time

try:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
except ImportError:
    print(json.dumps({"error": "vaderSentiment is not installed (pip install vaderSentiment)"}))
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lines")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0, help="time only the first N lines")
    parser.add_argument("--scores")
    args = parser.parse_args()

    with open(args.lines, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    timed = lines[: args.limit] if args.limit else lines

    analyzer = SentimentIntensityAnalyzer()
    rates = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        for line in timed:
            analyzer.polarity_scores(line)
        rates.append(len(timed) / (time.perf_counter() - start))

    if args.scores:
        with open(args.scores, "w", encoding="utf-8") as out:
            for line in lines:
                out.write("%.4f\n" % analyzer.polarity_scores(line)["compound"])

    print(json.dumps({
        "posts": len(timed),
        "rounds": args.rounds,
        "median_posts_per_sec": statistics.median(rates),
    }))


if __name__ == "__main__":
    main()

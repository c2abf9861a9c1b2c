"""Writes an import file of real tweet texts for bench/import/run.sh.

Usage: make_file.py POSTS FILE

Hark-form NDJSON, one post a line: texts from ../shared/data's SemEval tweets (Rosenthal et al.,
SemEval 2013-2016; generated lines when the data is absent), each tagged #loadtest so that the
load test's tracker keeps it, over 90 days and 40,000 equally likely accounts (the benchmarks'
`real` shape).
"""
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "load"))
from drive import TEXTS  # noqa: E402

ACCOUNTS = 40_000


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(11)
    now = int(time.time() * 1000)
    start = now - 90 * 86_400_000
    with open(path, "w", encoding="utf-8") as f:
        for k in range(n):
            a = rng.randrange(ACCOUNTS)
            f.write(json.dumps({
                "platform": "twitter",
                "id": str(10_000_000 + k),
                "text": rng.choice(TEXTS) + " #loadtest",
                "createdAt": rng.randint(start, now - 60_000),
                "author": {"id": str(a), "username": f"user{a}", "name": f"User {a}", "followers": rng.randint(0, 5_000)},
                "counts": {"likes": int(rng.paretovariate(1.5)) - 1, "retweets": int(rng.paretovariate(2.0)) - 1, "replies": rng.randint(0, 3)},
            }) + "\n")


if __name__ == "__main__":
    main()

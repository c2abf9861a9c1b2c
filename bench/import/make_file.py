"""Writes an import file of real tweet texts for bench/import/run.sh.

Usage: make_file.py POSTS FILE [SHAPE]

Hark-form NDJSON, one post a line: texts from ../shared/data's SemEval tweets (Rosenthal et al.,
SemEval 2013-2016; generated lines when the data is absent), each tagged #loadtest so that the
load test's tracker keeps it, over 90 days and 40,000 accounts: equally likely (SHAPE `real`, the
default; the benchmarks' `real` shape) or heavy-tailed (`zipf`: Zipf(1.1) over the accounts, as the
benchmarks' `zipf` shape draws its authors).
"""
import bisect
import itertools
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
    shape = sys.argv[3] if len(sys.argv) > 3 else "real"
    if shape not in ("real", "zipf"):
        sys.exit(f"unknown shape '{shape}' (real or zipf)")
    rng = random.Random(11)
    # Zipf(1.1): the cumulative weights of accounts 1..n, inverted by bisection.
    cdf = list(itertools.accumulate(1.0 / k ** 1.1 for k in range(1, ACCOUNTS + 1)))
    now = int(time.time() * 1000)
    start = now - 90 * 86_400_000
    with open(path, "w", encoding="utf-8") as f:
        for k in range(n):
            a = rng.randrange(ACCOUNTS) if shape == "real" else bisect.bisect_left(cdf, rng.random() * cdf[-1])
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

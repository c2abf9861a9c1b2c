#!/usr/bin/env python3
"""The load test's account, tracker and ingest (bench/load/run.sh).

  drive.py setup BASE SEED        first account, a tracker for #loadtest, SEED posts imported
                                  over the last 25 days; prints the session cookie and the hash
  drive.py ingest BASES COOKIE HASH RATE SECONDS
                                  imports RATE posts a second for SECONDS through the servers in
                                  BASES (comma-separated, taken in turn), in batches of 250 every
                                  50 ms on schedule; prints one RESULT line: posts stored, the
                                  rate reached over the run and sustained from its 5th second,
                                  errors, and the import requests' latency (the time from sending
                                  posts to their being stored: the ingest lag of this path)

Posts are real tweet texts (../shared/data, SemEval 2013-2016) with #loadtest added, by 20,000
authors whose activity is heavy-tailed (Zipf), with heavy-tailed followers and counts.
"""
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "data", "sentiment-semeval-2013-2016", "train.tsv")
BATCH = 250


def texts():
    out = []
    try:
        with open(DATA, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3 and parts[2]:
                    out.append(parts[2])
    except OSError:
        pass
    return out or [f"plain load test post number {i}" for i in range(1000)]


TEXTS = texts()
AUTHORS = 20_000
# Zipf-like weights over the authors: a few post a lot, most post once or twice.
WEIGHTS = [1.0 / (i + 1) ** 1.1 for i in range(AUTHORS)]


def posts(n, start_id, t_from, t_to, rng):
    authors = rng.choices(range(AUTHORS), weights=WEIGHTS, k=n)
    out = []
    for k in range(n):
        a = authors[k]
        out.append({
            "platform": "twitter",
            "id": str(start_id + k),
            "text": rng.choice(TEXTS) + " #loadtest",
            "createdAt": rng.randint(t_from, t_to),
            "author": {"id": str(a), "username": f"user{a}", "name": f"User {a}", "followers": int(50_000 / (a + 1)) + rng.randint(0, 50)},
            "counts": {"likes": int(rng.paretovariate(1.5)) - 1, "retweets": int(rng.paretovariate(2.0)) - 1, "replies": rng.randint(0, 3)},
        })
    return "".join(json.dumps(p) + "\n" for p in out)


class Client:
    def __init__(self, base, cookie=""):
        u = urllib.parse.urlparse(base)
        self.host, self.port = u.hostname, u.port
        self.cookies = dict(kv.split("=", 1) for kv in cookie.split("; ") if "=" in kv)
        self.conn = None

    def cookie(self):
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def call(self, method, path, body=None, content_type="application/json"):
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            headers = {"Cookie": self.cookie(), "X-CSRF-Token": self.cookies.get("hark_csrf", "")}
            if body is not None:
                headers["Content-Type"] = content_type
            try:
                self.conn.request(method, path, body=body, headers=headers)
                r = self.conn.getresponse()
                data = r.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            for h, v in r.getheaders():
                if h.lower() == "set-cookie":
                    k, _, rest = v.partition("=")
                    self.cookies[k] = rest.split(";", 1)[0]
            return r.status, data
        raise RuntimeError("unreachable")


def setup(base, seed):
    c = Client(base)
    c.call("GET", "/api/v1/me")
    s, b = c.call("POST", "/api/v1/setup", json.dumps({"email": "load@example.org", "password": "password123", "name": "Load"}))
    if s != 201:
        sys.exit(f"setup: {s} {b[:200]!r}")
    s, b = c.call("POST", "/api/v1/trackers", json.dumps({"platforms": {"twt": 1}, "search": {"rows": [{"type": "+", "searches": ["#loadtest"]}]}, "title": "Load test"}))
    if s != 201:
        sys.exit(f"tracker: {s} {b[:200]!r}")
    h = json.loads(b)["hash"]
    rng = random.Random(7)
    now = int(time.time() * 1000)
    for i in range(0, seed, 1000):
        n = min(1000, seed - i)
        s, b = c.call("POST", f"/api/v1/trackers/{h}/import?format=ndjson", posts(n, 1 + i, now - 25 * 86_400_000, now - 60_000, rng), "application/x-ndjson")
        if s != 200:
            sys.exit(f"seed import: {s} {b[:200]!r}")
    print(json.dumps({"cookie": c.cookie(), "hash": h}))


def ingest(bases, cookie, h, rate, seconds):
    """Sends a batch every BATCH / RATE seconds on schedule (open loop): a sender free when a
    batch falls due sends it, and there are enough senders that a slow answer does not hold the
    next batch back, so the rate reached is the server's, not the feeder's. Prints the posts
    stored, the rate over the whole run (to the last answer), the sustained rate (posts
    acknowledged from the 5th second to the end of the schedule), the import latency (the ingest
    lag of this path) over the whole run and over its last third (a lag that grows is a server
    falling behind), and how late the feeder sent its latest batch."""
    bases = bases.split(",")
    interval = BATCH / rate
    start = time.time()
    lock = threading.Lock()
    # (sent, answered, posts stored) per request
    stats = {"done": [], "errors": 0, "next": 0, "why": {}, "slip": 0.0}
    first_id = 10_000_000

    def worker(w):
        rng = random.Random(w)
        client = [Client(b, cookie) for b in bases]
        while True:
            with lock:
                k = stats["next"]
                stats["next"] += 1
            due = start + k * interval
            if due - start >= seconds:
                return
            wait = due - time.time()
            if wait > 0:
                time.sleep(wait)
            now = int(time.time() * 1000)
            body = posts(BATCH, first_id + k * BATCH, now - 5_000, now, rng)
            t0 = time.time()
            why = None
            try:
                s, b = client[k % len(bases)].call("POST", f"/api/v1/trackers/{h}/import?format=ndjson", body, "application/x-ndjson")
                ok = s == 200
                n = json.loads(b).get("imported", 0) if ok else 0
                if not ok:
                    try:
                        why = f"{s} {json.loads(b)['error']['code']}"
                    except Exception:
                        why = str(s)
            except Exception as e:
                ok, n, why = False, 0, type(e).__name__
            t1 = time.time()
            with lock:
                stats["slip"] = max(stats["slip"], t0 - due)
                stats["done"].append((t0 - start, t1 - start, n))
                if not ok:
                    stats["errors"] += 1
                    stats["why"][why] = stats["why"].get(why, 0) + 1

    senders = int(os.environ.get("HARK_LOAD_SENDERS", "32"))
    threads = [threading.Thread(target=worker, args=(w,)) for w in range(senders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done = stats["done"]
    stored = sum(n for _, _, n in done)
    took = max((a for _, a, _ in done), default=time.time() - start)
    warm = min(5.0, seconds / 4)
    sustained = sum(n for _, a, n in done if warm <= a <= seconds) / (seconds - warm)

    def pct(rows, p):
        lat = sorted(a - s for s, a, _ in rows) or [0.0]
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000

    last = [r for r in done if r[0] >= seconds * 2 / 3]
    print(f"RESULT kind=ingest stored={stored} seconds={took:.1f} rate={stored / took:.0f} sustained={sustained:.0f} target={rate} "
          f"errors={stats['errors']} p50={pct(done, 50):.1f} p95={pct(done, 95):.1f} max={pct(done, 100):.1f} "
          f"last_p95={pct(last, 95):.1f} slip={stats['slip'] * 1000:.0f}")
    for why, n in sorted(stats["why"].items()):
        print(f"failed import requests: {n} x {why}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "setup":
        setup(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) >= 7 and sys.argv[1] == "ingest":
        ingest(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6]))
    else:
        sys.exit(__doc__)

#!/usr/bin/env python3
"""DuckDB yardstick for the dashboard benchmark (crates/hark-ingest/benches/dashboard.rs).

Computes, in an in-memory DuckDB database, the answers of the dashboard's 12 panel groups over a
tracker's raw post rows: the same answers Hark gives on its "rows only" baseline path
(`PageFilter { rows_only: true }`, every function of crates/hark-store/src/dashboard/*.rs reading
post rows through `FROM_ROWS` + `row_conditions`), so that Hark's rollup path can be compared with
a column store computing the same thing from scratch.

usage:
    dashboard.py --db SQLITE_FILE --tracker ID --ranges JSON [--reps N] [--check] [--threads N]
                 [--groups G1,G2]

    --ranges  a JSON object, label -> [start_ms, end_ms] (inclusive bounds of
              tracker_posts.created_at) or null (All Time), e.g.
              '{"30 days": [1787409234567, 1789999999223], "All Time": null}'
    --reps    timed runs of each group (after one untimed warm-up run); default 3
    --check   also compute every answer on the SQLite file with Hark's rows-path SQL (a literal
              transcription, with its Rust post-processing redone in Python) and assert that it
              equals DuckDB's answer (untimed; slow: SQLite reads every row each time)
    --threads DuckDB threads (default: DuckDB's own default, the number of cores)
    --groups  time only these groups (names as below)

Needs only the standard library and the `duckdb` package (json is built into its wheel; no
extension is downloaded).

Step 1 (untimed; its duration goes to stderr): the tracker's live rows
(`tracker_posts tp JOIN posts p ON p.id = tp.post_id WHERE tp.tracker_id = ? AND tp.deleted_at IS
NULL`, on the ten known platforms: every Hark query has `tp.platform IN (...)` with a subset of
them) are read with Python's sqlite3 (read-only), written to a temporary CSV, and read by DuckDB
(`read_csv` with explicit column types) into the columnar layout DuckDB is best at:

* `posts(post_id, created_at, platform, subtrackers, sentiment, author, author_no, engagement,
  followers, impressions, likes, dislikes, country, region, device, gender, post_type)`, sorted by
  `created_at` (the order posts arrive in), so that a time range skips whole row groups through
  DuckDB's min/max zone maps. `platform` is an ENUM whose values are in byte order (so ordering by
  it is ordering by the name). `sentiment` is the shown bucket `COALESCE(tp.sentiment_override,
  tp.sentiment_rule, p.sentiment_bucket)` and `author` the author key `CASE WHEN
  p.author_username = '' THEN p.author_id ELSE p.author_username END`, both computed once at load
  (as Hark keeps derived sort keys on its links: `tracker_posts.bucket`, the shown bucket with
  'neutral' for none, though its rows path recomputes the COALESCE).
  `author_no` numbers the distinct (platform, author) pairs in their byte order (a dictionary
  encoding, as an authors dimension table would give): users and influencers group on an integer,
  and ordering by it is ordering by (platform, author), the influencers' tie-break.
* `terms(post_id, created_at, platform, kind, term)`: the `posts.terms` JSON lists (keys h, m, k,
  d, l = hashtag, mention, keyword, domain, link) unnested once at load, one row per list element
  (a term listed twice in a post counts twice, as Hark's rows path counts it), sorted by (kind,
  created_at) so that a kind and a range read only their row groups; no JSON is parsed at query
  time.

Step 2 (timed with time.perf_counter): for each range and each group, one warm-up run, then
`--reps` runs; a run executes the group's SQL (one DuckDB connection, DuckDB's own threads) and
builds its canonical answer. Ranges are inlined as integer literals (`created_at BETWEEN a AND b`;
nothing for All Time), so the planner sees them. Sums are cast to BIGINT (as Hark's SQL does; the
HUGEINT DuckDB sums to is slower to fetch). The timeline groups on `created_at // 3600000` when no
post lies before 1970 (truncating division is then the floor Hark's expression computes; else
Hark's expression is used); share of voice counts posts per distinct subtracker mask, then per
bit. Tried and dropped as no faster at 1M posts: terms numbered by a dictionary (grouping on an
integer term id), GROUPING SETS for country + region, COUNT(DISTINCT) inside the counts scan.

Output (stdout, one JSON object a line): per group
`{"range": L, "group": G, "p50_ms": x, "p95_ms": y, "answer": CANONICAL}` (percentiles picked as
the Rust bench's `pct` does: sorted, index round((n - 1) * p)), and after each range
`{"range": L, "whole_ms": sum of the group p50s}`.

The answers (all platforms unless said; "terms" = [[term, count], ...] with count > 0, by count
descending then term ascending, byte order; NULL values are not terms, empty strings are):

 1. topStats          {"posts", "engagement", "reach" (SUM author_followers), "impressions",
                       "users" (distinct (platform, author key))}     dash_counts + dash_users
 2. timeline          [[hour_start_ms, posts, engagement, reach, impressions], ...] per UTC hour
                      with posts, by hour                              dash_series(3_600_000)
 3. locations         {"country": terms, "region": terms}             dash_terms country, region
 4. topPosts          [post id] x 10 by engagement desc, created_at desc, id     dash_top_posts
 5. sentiments        {"sentiment": terms of the shown bucket, "shareOfVoice": [posts with
                      subtracker bit i set, i = 0..4]}     dash_terms sentiment + share_of_voice
 6. devices           terms of p.device, twitter only                  dash_terms source
 7. genders           terms of p.gender                                dash_terms gender
 8. postTypes         terms of p.post_type, twitter only               dash_terms post_type
 9. viewerSentiments  [SUM likes, SUM dislikes] of youtube posts      dash_viewer_sentiment
10. influencers       {"byEngagement": [[author key, engagement]], "byPosts": [[author key,
                      posts]]}, top 10 each: by (engagement, posts) resp. (posts, engagement)
                      descending, ties by (platform, author key) ascending   dash_influencers
11. topics            {"hashtag": first 20 terms, "keyword": first 20 terms}
12. topPages          {"webDomains": first 10 domain terms of news, blogs, forums,
                      "socialDomains": first 10 domain terms of twitter, youtube, facebook,
                      "socialLinks": first 10 link terms of twitter, youtube, facebook}
                                                            dash_top_terms_many (11 and 12)
"""
import argparse
import csv
import json
import math
import os
import sqlite3
import sys
import tempfile
import time
import urllib.parse

import duckdb

# hark_core::Platform::name of each platform, in byte order (the ENUM's order).
PLATFORMS = sorted(["twitter", "instagram", "youtube", "facebook", "tiktok", "news", "blogs", "forums", "bluesky", "mastodon"])
WEB = ["news", "blogs", "forums"]
SOCIAL = ["twitter", "youtube", "facebook"]
# posts.terms keys (crates/hark-store/src/dashboard/terms.rs, TermsRef), in byte order of the kind.
KINDS = {"domain": "d", "hashtag": "h", "keyword": "k", "link": "l", "mention": "m"}
# crates/hark-store/src/dashboard/mod.rs FAR: the bounds of an open range.
FAR = (2**63 - 1) // 4
HOUR_MS = 3_600_000

GROUPS = [
    "topStats",
    "timeline",
    "locations",
    "topPosts",
    "sentiments",
    "devices",
    "genders",
    "postTypes",
    "viewerSentiments",
    "influencers",
    "topics",
    "topPages",
]


def sql_list(names):
    return ",".join("'%s'" % n for n in names)


# ---------------------------------------------------------------------------------------------
# Step 1: load
# ---------------------------------------------------------------------------------------------

# Text columns that may be NULL or empty are written with a leading 'v' (NULL stays NULL): an
# empty CSV field is NULL to DuckDB, a non-NULL value is never empty, and substr(x, 2) gives it
# back exactly.
LOAD_SQL = """
SELECT tp.post_id, tp.created_at, tp.platform, tp.subtrackers,
       'v' || COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket),
       'v' || CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END,
       p.engagement, p.author_followers, p.impressions, p.likes, p.dislikes,
       'v' || p.country, 'v' || p.region, 'v' || p.device, 'v' || p.gender, 'v' || p.post_type,
       p.terms
FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id
WHERE tp.tracker_id = ? AND tp.deleted_at IS NULL AND tp.platform IN ({platforms})
""".format(platforms=sql_list(PLATFORMS))

CSV_COLUMNS = [
    ("post_id", "BIGINT"),
    ("created_at", "BIGINT"),
    ("platform", "VARCHAR"),
    ("subtrackers", "BIGINT"),
    ("sentiment", "VARCHAR"),
    ("author", "VARCHAR"),
    ("engagement", "BIGINT"),
    ("followers", "BIGINT"),
    ("impressions", "BIGINT"),
    ("likes", "BIGINT"),
    ("dislikes", "BIGINT"),
    ("country", "VARCHAR"),
    ("region", "VARCHAR"),
    ("device", "VARCHAR"),
    ("gender", "VARCHAR"),
    ("post_type", "VARCHAR"),
    ("terms", "VARCHAR"),
]


def open_sqlite(path):
    uri = "file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path))
    return sqlite3.connect(uri, uri=True)


def load(db_path, tracker, threads):
    t0 = time.perf_counter()
    src = open_sqlite(db_path)
    con = duckdb.connect(":memory:")
    if threads:
        con.execute("SET threads = %d" % threads)
    with tempfile.TemporaryDirectory(prefix="hark-duckdb-") as tmp:
        path = os.path.join(tmp, "rows.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            cur = src.execute(LOAD_SQL, (tracker,))
            w = csv.writer(f, lineterminator="\n")
            n = 0
            while True:
                rows = cur.fetchmany(50_000)
                if not rows:
                    break
                w.writerows(rows)
                n += len(rows)
        src.close()
        t_read = time.perf_counter()
        columns = "{%s}" % ", ".join("'%s': '%s'" % c for c in CSV_COLUMNS)
        con.execute(
            "CREATE TEMP TABLE raw AS SELECT * FROM read_csv(?, header = false, auto_detect = false, delim = ',', "
            "quote = '\"', escape = '\"', columns = %s)" % columns,
            [path],
        )
    con.execute("CREATE TYPE platform_t AS ENUM (%s)" % sql_list(PLATFORMS))
    con.execute("CREATE TYPE kind_t AS ENUM (%s)" % sql_list(KINDS))
    # Authors numbered in (platform, author) byte order.
    con.execute(
        "CREATE TABLE authors AS SELECT row_number() OVER (ORDER BY platform, author) AS author_no, platform, author "
        "FROM (SELECT DISTINCT CAST(platform AS platform_t) AS platform, substr(author, 2) AS author FROM raw)"
    )
    con.execute(
        """
        CREATE TABLE posts AS
        SELECT r.post_id, r.created_at, CAST(r.platform AS platform_t) AS platform, r.subtrackers,
               substr(r.sentiment, 2) AS sentiment, substr(r.author, 2) AS author, CAST(a.author_no AS INTEGER) AS author_no,
               r.engagement, r.followers, r.impressions, r.likes, r.dislikes,
               substr(r.country, 2) AS country, substr(r.region, 2) AS region, substr(r.device, 2) AS device,
               substr(r.gender, 2) AS gender, substr(r.post_type, 2) AS post_type
        FROM raw r JOIN authors a ON a.platform = CAST(r.platform AS platform_t) AND a.author = substr(r.author, 2)
        ORDER BY r.created_at, r.post_id
        """
    )
    shape = "{%s}" % ", ".join('"%s": ["VARCHAR"]' % k for k in KINDS.values())
    parts = " UNION ALL ".join(
        "SELECT post_id, created_at, platform, '%s' AS kind, unnest(struct_extract(tj, '%s')) AS term FROM j" % (kind, key) for kind, key in KINDS.items()
    )
    con.execute(
        """
        CREATE TABLE terms AS
        WITH j AS MATERIALIZED (SELECT post_id, created_at, CAST(platform AS platform_t) AS platform, json_transform(terms, '%s') AS tj FROM raw)
        SELECT post_id, created_at, platform, CAST(kind AS kind_t) AS kind, term FROM (%s)
        ORDER BY kind, created_at, post_id
        """
        % (shape, parts)
    )
    con.execute("DROP TABLE raw")
    con.execute("CHECKPOINT")
    t1 = time.perf_counter()
    nterms = con.execute("SELECT COUNT(*) FROM terms").fetchone()[0]
    print(
        "loaded %d rows (%d term rows) in %.1f s (SQLite read + CSV write %.1f s, DuckDB %.1f s)"
        % (n, nterms, t1 - t0, t_read - t0, t1 - t_read),
        file=sys.stderr,
        flush=True,
    )
    return con


# ---------------------------------------------------------------------------------------------
# Step 2: the groups in DuckDB
# ---------------------------------------------------------------------------------------------


def ints(rows):
    return [[int(x) for x in r] for r in rows]


def term_rows(rows):
    return [[t, int(c)] for t, c in rows]


class Duck:
    def __init__(self, con, rng):
        self.con = con
        self.nonneg = con.execute("SELECT COALESCE(MIN(created_at), 0) >= 0 FROM posts").fetchone()[0]
        self.w = "TRUE" if rng is None else "created_at BETWEEN %d AND %d" % (rng[0], rng[1])

    def q(self, sql):
        return self.con.execute(sql.replace("{W}", self.w)).fetchall()

    def column_terms(self, col, platforms=None):
        p = "" if platforms is None else " AND platform IN (%s)" % sql_list(platforms)
        return term_rows(
            self.q(
                "SELECT %s AS t, COUNT(*) AS c FROM posts WHERE {W}%s AND %s IS NOT NULL GROUP BY t ORDER BY c DESC, t"
                % (col, p, col)
            )
        )

    def list_terms(self, kind, platforms, limit):
        p = "" if platforms is None else " AND platform IN (%s)" % sql_list(platforms)
        return term_rows(
            self.q(
                "SELECT term, COUNT(*) AS c FROM terms WHERE kind = '%s' AND {W}%s GROUP BY term ORDER BY c DESC, term LIMIT %d"
                % (kind, p, limit)
            )
        )

    def topStats(self):
        r = self.q(
            "SELECT COUNT(*), COALESCE(SUM(engagement), 0)::BIGINT, COALESCE(SUM(followers), 0)::BIGINT, COALESCE(SUM(impressions), 0)::BIGINT, "
            "(SELECT COUNT(*) FROM (SELECT DISTINCT author_no FROM posts WHERE {W})) FROM posts WHERE {W}"
        )[0]
        return {"posts": int(r[0]), "engagement": int(r[1]), "reach": int(r[2]), "impressions": int(r[3]), "users": int(r[4])}

    def timeline(self):
        if self.nonneg:
            # Every created_at >= 0: DuckDB's integer division (truncating) is the floor division.
            bucket = "created_at // %d" % HOUR_MS
            rows = self.q(
                "SELECT %s AS b, COUNT(*), SUM(engagement)::BIGINT, SUM(followers)::BIGINT, SUM(impressions)::BIGINT "
                "FROM posts WHERE {W} GROUP BY b ORDER BY b" % bucket
            )
            return [[int(r[0]) * HOUR_MS, int(r[1]), int(r[2]), int(r[3]), int(r[4])] for r in rows]
        # Hark's floor, right before 1970 too.
        return ints(
            self.q(
                "SELECT created_at - (((created_at %% %d) + %d) %% %d) AS b, COUNT(*), SUM(engagement)::BIGINT, SUM(followers)::BIGINT, "
                "SUM(impressions)::BIGINT FROM posts WHERE {W} GROUP BY b ORDER BY b" % (HOUR_MS, HOUR_MS, HOUR_MS)
            )
        )

    def locations(self):
        return {"country": self.column_terms("country"), "region": self.column_terms("region")}

    def topPosts(self):
        return [int(r[0]) for r in self.q("SELECT post_id FROM posts WHERE {W} ORDER BY engagement DESC, created_at DESC, post_id LIMIT 10")]

    def sentiments(self):
        # Posts per distinct subtracker mask first (a few dozen masks), then per bit.
        sums = ", ".join("COALESCE(SUM(c) FILTER ((s & %d) <> 0), 0)::BIGINT" % (1 << i) for i in range(5))
        sov = self.q("SELECT %s FROM (SELECT subtrackers AS s, COUNT(*) AS c FROM posts WHERE {W} GROUP BY s)" % sums)[0]
        return {"sentiment": self.column_terms("sentiment"), "shareOfVoice": [int(x) for x in sov]}

    def devices(self):
        return self.column_terms("device", ["twitter"])

    def genders(self):
        return self.column_terms("gender")

    def postTypes(self):
        return self.column_terms("post_type", ["twitter"])

    def viewerSentiments(self):
        r = self.q("SELECT COALESCE(SUM(likes), 0)::BIGINT, COALESCE(SUM(dislikes), 0)::BIGINT FROM posts WHERE {W} AND platform = 'youtube'")[0]
        return [int(r[0]), int(r[1])]

    def influencers(self):
        # author_no order is (platform, author) order: the tie-break.
        rows = self.q(
            """
            WITH a AS MATERIALIZED (SELECT author_no, COUNT(*) AS n, SUM(engagement)::BIGINT AS e FROM posts WHERE {W} GROUP BY author_no),
            top AS (
                (SELECT 0 AS list, author_no, e, n FROM a ORDER BY e DESC, n DESC, author_no LIMIT 10)
                UNION ALL
                (SELECT 1 AS list, author_no, e, n FROM a ORDER BY n DESC, e DESC, author_no LIMIT 10))
            SELECT top.list, top.author_no, au.author, top.e, top.n FROM top JOIN authors au USING (author_no)
            """
        )
        by_eng = sorted((r for r in rows if r[0] == 0), key=lambda r: (-r[3], -r[4], r[1]))
        by_posts = sorted((r for r in rows if r[0] == 1), key=lambda r: (-r[4], -r[3], r[1]))
        return {"byEngagement": [[r[2], int(r[3])] for r in by_eng], "byPosts": [[r[2], int(r[4])] for r in by_posts]}

    def topics(self):
        return {"hashtag": self.list_terms("hashtag", None, 20), "keyword": self.list_terms("keyword", None, 20)}

    def topPages(self):
        return {
            "webDomains": self.list_terms("domain", WEB, 10),
            "socialDomains": self.list_terms("domain", SOCIAL, 10),
            "socialLinks": self.list_terms("link", SOCIAL, 10),
        }


# ---------------------------------------------------------------------------------------------
# --check: Hark's rows-path SQL on the SQLite file, with its Rust post-processing
# ---------------------------------------------------------------------------------------------

FROM_ROWS = (
    "FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id "
    "WHERE tp.tracker_id = ? AND tp.created_at >= ? AND tp.created_at <= ?"
)
AUTHOR_KEY = "CASE WHEN p.author_username = '' THEN p.author_id ELSE p.author_username END"
COLUMN_OF = {
    "country": "p.country",
    "region": "p.region",
    "source": "p.device",
    "post_type": "p.post_type",
    "sentiment": "COALESCE(tp.sentiment_override, tp.sentiment_rule, p.sentiment_bucket)",
    "gender": "p.gender",
}


def byte_key(s):
    return s.encode("utf-8", "surrogatepass")


def sorted_terms(acc):
    """terms.rs sorted_terms: positive counts, count descending, then term (bytewise)."""
    v = [(t, c) for t, c in acc.items() if c > 0]
    v.sort(key=lambda x: (-x[1], byte_key(x[0])))
    return [[t, c] for t, c in v]


def parse_terms_ref(line):
    """serde_json::from_str::<TermsRef>: None where it fails (the line is then skipped)."""
    try:
        v = json.loads(line)
    except ValueError:
        return None
    if not isinstance(v, dict):
        return None
    for key in KINDS.values():
        if key in v and not (isinstance(v[key], list) and all(isinstance(x, str) for x in v[key])):
            return None
    return v


class Reference:
    def __init__(self, src, tracker, rng):
        self.src = src
        self.t = tracker
        self.a, self.b = (-FAR, FAR) if rng is None else (rng[0], rng[1])

    def cond(self, platforms):
        return " AND tp.deleted_at IS NULL AND tp.platform IN (%s)" % sql_list(platforms)

    def rows(self, sql):
        return self.src.execute(sql, (self.t, self.a, self.b)).fetchall()

    def dash_terms(self, kind, platforms=PLATFORMS):
        col = COLUMN_OF[kind]
        rows = self.rows("SELECT %s AS t, COUNT(*) %s%s AND %s IS NOT NULL GROUP BY %s" % (col, FROM_ROWS, self.cond(platforms), col, col))
        acc = {}
        for t, c in rows:
            acc[t] = acc.get(t, 0) + c
        return sorted_terms(acc)

    def dash_top_terms_many(self, wants, limit):
        """wants: [(kind, platforms)]; the filter's platforms are all of them."""
        union = sorted({p for _, ps in wants for p in ps})
        sql = "SELECT tp.platform, group_concat(p.terms, char(10)) %s%s GROUP BY tp.platform, tp.created_at / %d" % (
            FROM_ROWS,
            self.cond(union),
            HOUR_MS,
        )
        accs = [{} for _ in wants]
        for platform, joined in self.rows(sql):
            name = platform.strip().lower()
            if name not in PLATFORMS:
                continue
            which = [i for i, (_, ps) in enumerate(wants) if name in ps]
            if not which:
                continue
            for line in joined.split("\n"):
                terms = parse_terms_ref(line)
                if terms is None:
                    continue
                for i in which:
                    for t in terms.get(KINDS[wants[i][0]], []):
                        accs[i][t] = accs[i].get(t, 0) + 1
        return [sorted_terms(acc)[:limit] for acc in accs]

    def topStats(self):
        c = self.rows(
            "SELECT COUNT(*), CAST(COALESCE(SUM(p.engagement), 0) AS BIGINT), CAST(COALESCE(SUM(p.author_followers), 0) AS BIGINT), "
            "CAST(COALESCE(SUM(p.impressions), 0) AS BIGINT) %s%s" % (FROM_ROWS, self.cond(PLATFORMS))
        )[0]
        u = self.rows(
            "SELECT COUNT(*) FROM (SELECT DISTINCT tp.platform, %s FROM tracker_posts tp JOIN posts p ON p.id = tp.post_id "
            "WHERE tp.tracker_id = ? AND tp.created_at >= ? AND tp.created_at <= ?%s) u" % (AUTHOR_KEY, self.cond(PLATFORMS))
        )[0][0]
        return {"posts": c[0], "engagement": c[1], "reach": c[2], "impressions": c[3], "users": u}

    def timeline(self):
        r = HOUR_MS
        bucket = "(tp.created_at - (((tp.created_at %% %d) + %d) %% %d))" % (r, r, r)
        rows = self.rows(
            "SELECT %s AS b, COUNT(*), CAST(COALESCE(SUM(p.engagement), 0) AS BIGINT), "
            "CAST(COALESCE(SUM(p.author_followers), 0) AS BIGINT), CAST(COALESCE(SUM(p.impressions), 0) AS BIGINT) "
            "%s%s GROUP BY %s" % (bucket, FROM_ROWS, self.cond(PLATFORMS), bucket)
        )
        acc = {}
        for b, *c in rows:
            prev = acc.get(b, [0, 0, 0, 0])
            acc[b] = [x + y for x, y in zip(prev, c)]
        return [[b] + c for b, c in sorted(acc.items()) if c != [0, 0, 0, 0]]

    def locations(self):
        return {"country": self.dash_terms("country"), "region": self.dash_terms("region")}

    def topPosts(self):
        rows = self.src.execute(
            "SELECT p.id %s%s ORDER BY p.engagement DESC, tp.created_at DESC, p.id LIMIT ?" % (FROM_ROWS, self.cond(PLATFORMS)),
            (self.t, self.a, self.b, 10),
        ).fetchall()
        return [r[0] for r in rows]

    def sentiments(self):
        cols = ", ".join(
            "CAST(COALESCE(SUM(CASE WHEN (tp.subtrackers & %d) <> 0 THEN 1 ELSE 0 END), 0) AS BIGINT)" % (1 << i) for i in range(5)
        )
        sov = self.rows("SELECT %s %s%s" % (cols, FROM_ROWS, self.cond(PLATFORMS)))[0]
        return {"sentiment": self.dash_terms("sentiment"), "shareOfVoice": list(sov)}

    def devices(self):
        return self.dash_terms("source", ["twitter"])

    def genders(self):
        return self.dash_terms("gender")

    def postTypes(self):
        return self.dash_terms("post_type", ["twitter"])

    def viewerSentiments(self):
        r = self.rows(
            "SELECT CAST(COALESCE(SUM(p.likes), 0) AS BIGINT), CAST(COALESCE(SUM(p.dislikes), 0) AS BIGINT) %s%s"
            % (FROM_ROWS, self.cond(["youtube"]))
        )[0]
        return [r[0], r[1]]

    def influencers(self):
        rows = self.rows(
            "SELECT tp.platform, %s AS a, COUNT(*), CAST(SUM(p.engagement) AS BIGINT), CAST(MAX(p.author_followers) AS BIGINT) "
            "%s%s GROUP BY tp.platform, %s" % (AUTHOR_KEY, FROM_ROWS, self.cond(PLATFORMS), AUTHOR_KEY)
        )
        acc = {}
        for platform, author, posts, eng, fol in rows:
            e = acc.setdefault((platform, author), [0, 0, 0])
            e[0] += posts
            e[1] += eng
            e[2] = max(e[2], fol)
        all_ = [(k, v) for k, v in acc.items() if v[0] > 0]

        def top(key):
            v = sorted(all_, key=lambda x: (tuple(-y for y in key(x[1])), byte_key(x[0][0]), byte_key(x[0][1])))
            return v[:10]

        by_eng = top(lambda v: (v[1], v[0]))
        by_posts = top(lambda v: (v[0], v[1]))
        return {"byEngagement": [[k[1], v[1]] for k, v in by_eng], "byPosts": [[k[1], v[0]] for k, v in by_posts]}

    def topics(self):
        h, k = self.dash_top_terms_many([("hashtag", PLATFORMS), ("keyword", PLATFORMS)], 20)
        return {"hashtag": h[:20], "keyword": k[:20]}

    def topPages(self):
        w, d, l = self.dash_top_terms_many([("domain", WEB), ("domain", SOCIAL), ("link", SOCIAL)], 10)
        return {"webDomains": w[:10], "socialDomains": d[:10], "socialLinks": l[:10]}


# ---------------------------------------------------------------------------------------------


def pct(v, p):
    """The Rust bench's pct: sorted, index (len - 1) * p rounded half away from zero."""
    v = sorted(v)
    return v[int(math.floor((len(v) - 1) * p + 0.5))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--tracker", required=True, type=int)
    ap.add_argument("--ranges", required=True)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--groups", default="", help="comma list: time only these groups")
    args = ap.parse_args()
    ranges = json.loads(args.ranges)
    for label, r in ranges.items():
        if r is not None and not (isinstance(r, list) and len(r) == 2 and all(isinstance(x, int) for x in r)):
            sys.exit("range %r: want [start_ms, end_ms] (integers) or null" % label)
    only = [g.strip() for g in args.groups.split(",") if g.strip()]
    groups = [g for g in GROUPS if not only or g in only]

    con = load(args.db, args.tracker, args.threads)
    src = open_sqlite(args.db) if args.check else None
    mismatches = 0
    for label, r in ranges.items():
        duck = Duck(con, r)
        whole = 0.0
        for g in groups:
            run = getattr(duck, g)
            answer = run()  # warm-up
            times = []
            for _ in range(args.reps):
                s = time.perf_counter()
                answer = run()
                times.append((time.perf_counter() - s) * 1000.0)
            p50, p95 = (pct(times, 0.5), pct(times, 0.95)) if times else (float("nan"), float("nan"))
            whole += p50
            line = {"range": label, "group": g, "p50_ms": round(p50, 3), "p95_ms": round(p95, 3), "answer": answer}
            if src is not None:
                s = time.perf_counter()
                ref = getattr(Reference(src, args.tracker, r), g)()
                ok = json.loads(json.dumps(ref)) == json.loads(json.dumps(answer))
                line["check"] = "ok" if ok else "MISMATCH"
                if not ok:
                    mismatches += 1
                    line["reference"] = ref
                print(
                    "check %s / %s: %s (SQLite %.1f s)" % (label, g, line["check"], time.perf_counter() - s),
                    file=sys.stderr,
                    flush=True,
                )
            print(json.dumps(line, ensure_ascii=False), flush=True)
        print(json.dumps({"range": label, "whole_ms": round(whole, 3)}), flush=True)
    if src is not None:
        print("check: %s" % ("all answers equal" if mismatches == 0 else "%d MISMATCHES" % mismatches), file=sys.stderr, flush=True)
        if mismatches:
            sys.exit(1)


if __name__ == "__main__":
    main()

-- wrk script of the load test's readers (bench/load/run.sh). HARK_KIND says which:
--   dashboard: a viewer of the dashboard, asking its panels in turn for the last 30 days;
--   posts:     a user of the posts page, in turn by date, engagement, reach and likes, pages 1 to 5.
-- HARK_HASH is the tracker, HARK_COOKIE the session cookie header. At the end one RESULT line gives
-- the requests, the errors (refused connections, timeouts, answers other than 2xx/3xx) and the
-- latency percentiles in milliseconds.
local hash = os.getenv("HARK_HASH")
local cookie = os.getenv("HARK_COOKIE")
local kind = os.getenv("HARK_KIND") or "dashboard"
local panels = { "top-stats", "timeline", "sentiments", "locations", "devices", "genders", "post-types",
  "influencers", "topics", "top-pages", "top-posts" }
local sorts = { "date", "engagement", "reach", "likes" }
local i = 0

request = function()
  i = i + 1
  local path
  if kind == "dashboard" then
    path = "/api/v1/trackers/" .. hash .. "/dashboard/" .. panels[(i % #panels) + 1] .. "?days=30"
  else
    path = "/api/v1/trackers/" .. hash .. "/posts?days=30&sort=" .. sorts[(i % #sorts) + 1] .. ";desc&page=" .. ((i % 5) + 1)
  end
  return wrk.format("GET", path, { ["Cookie"] = cookie })
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT kind=%s requests=%d errors=%d non2xx=%d timeouts=%d p50=%.1f p95=%.1f p99=%.1f max=%.1f\n",
    kind, summary.requests, e.connect + e.read + e.write + e.status + e.timeout, e.status, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end

-- The analysis reads every VM's packed days each hour (14 to 90 rows per metric). The rows of one
-- metric lie on as many heap pages as it has days (each day's rows are written together, for every
-- metric), so the read touched about one page per row: 34 ms of PostgreSQL per 200 VMs. With the
-- packed columns carried in an index on (metric_id, day), a metric's days are neighbours in the
-- index's leaves and the read is an index-only scan: 15 ms, 55% less of PostgreSQL's CPU for the
-- whole read (bench/recommendations). The heap keeps the rows (the primary key, the hourly
-- merges); the price is the packed bytes held twice. Not modelled by drizzle (INCLUDE).
CREATE INDEX IF NOT EXISTS "metric_day_read_idx" ON "metric_day" ("metric_id", "day") INCLUDE ("averages", "maximums", "p95s", "minimums");

-- The analysis reads each metric's 14 days of hours (average, maximum, p95) every hour. Rolled up
-- hour by hour, a metric's rows lie on as many heap pages as it has hours; with the values in the
-- key's index they are read from its few adjacent leaf pages (an index-only scan). The key is the
-- same, so ON CONFLICT (metric_id, hour) still finds it.
ALTER TABLE "metric_hourly" DROP CONSTRAINT "metric_hourly_metric_id_hour_pk";--> statement-breakpoint
ALTER TABLE "metric_hourly" ADD CONSTRAINT "metric_hourly_metric_id_hour_pk" PRIMARY KEY ("metric_id", "hour") INCLUDE ("average", "maximum", "p95");

-- Whether a metric has had its 14 days of hourly history asked of Azure is kept on the metric, not
-- guessed from metric_hourly: a tenant's first collection, queued beside its back-fill, rolls up an
-- hour of its own, and a back-fill that started after it took such metrics for back-filled and
-- skipped them for good (bench/scale: 8 of 20 new tenants left with 1 to 111 of their 336 hours).
ALTER TABLE "metric" ADD COLUMN "backfilled_at" timestamp with time zone;--> statement-breakpoint
-- Metrics with a week of hours already were back-filled (or have a week of their own); the others,
-- a newer tenant's that may have lost their back-fill so, get it at their tenant's next sync.
UPDATE "metric" SET "backfilled_at" = now()
WHERE EXISTS (
  SELECT 1 FROM "metric_hourly"
  WHERE "metric_hourly"."metric_id" = "metric"."id" AND "metric_hourly"."hour" < now() - interval '7 days'
);

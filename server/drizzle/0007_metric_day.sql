-- See metric_day in src/db/schema.ts: the hourly aggregates packed a metric-day to a row for the analysis.
CREATE TABLE "metric_day" (
	"metric_id" uuid NOT NULL,
	"day" date NOT NULL,
	"averages" "bytea" NOT NULL,
	"maximums" "bytea" NOT NULL,
	"p95s" "bytea" NOT NULL,
	"minimums" "bytea" NOT NULL,
	CONSTRAINT "metric_day_metric_id_day_pk" PRIMARY KEY("metric_id","day")
);
--> statement-breakpoint
ALTER TABLE "metric_day" ADD CONSTRAINT "metric_day_metric_id_metric_id_fk" FOREIGN KEY ("metric_id") REFERENCES "public"."metric"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A day's 24 hours of one aggregate, packed: float4 big-endian per hour (0-23, UTC), NaN where none.
-- metric_day_place lays the given hours into a packed day, leaving the others as they were; values
-- beyond float4's range are clamped to it rather than failing the statement that writes the hours.
CREATE FUNCTION metric_day_place(packed bytea, hours integer[], vals double precision[]) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  value double precision;
BEGIN
  FOR i IN 1 .. coalesce(array_length(hours, 1), 0) LOOP
    value := vals[i];
    CONTINUE WHEN value IS NULL OR value = 'NaN'::double precision OR hours[i] NOT BETWEEN 0 AND 23;
    value := CASE WHEN abs(value) < 1e-37 THEN 0 ELSE greatest(-3e38, least(3e38, value)) END;
    packed := overlay(packed PLACING float4send(value::real) FROM hours[i] * 4 + 1 FOR 4);
  END LOOP;
  RETURN packed;
END $$;--> statement-breakpoint
CREATE FUNCTION metric_day_pack(hours integer[], vals double precision[]) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN metric_day_place(decode(repeat('7fc00000', 24), 'hex'), hours, vals);--> statement-breakpoint
-- The hours `newer` knows replace those of `older`; the others keep what `older` had.
CREATE FUNCTION metric_day_merge(older bytea, newer bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  merged bytea := older;
  hour bytea;
BEGIN
  FOR i IN 0 .. 23 LOOP
    hour := substring(newer FROM i * 4 + 1 FOR 4);
    CONTINUE WHEN hour = '\x7fc00000'::bytea;
    merged := overlay(merged PLACING hour FROM i * 4 + 1 FOR 4);
  END LOOP;
  RETURN merged;
END $$;--> statement-breakpoint
-- The hours kept so far, packed.
INSERT INTO "metric_day" ("metric_id", "day", "averages", "maximums", "p95s", "minimums")
SELECT "metric_id", ("hour" AT TIME ZONE 'UTC')::date,
       metric_day_pack(array_agg(extract(hour FROM "hour" AT TIME ZONE 'UTC')::integer), array_agg("average")),
       metric_day_pack(array_agg(extract(hour FROM "hour" AT TIME ZONE 'UTC')::integer), array_agg("maximum")),
       metric_day_pack(array_agg(extract(hour FROM "hour" AT TIME ZONE 'UTC')::integer), array_agg("p95")),
       metric_day_pack(ARRAY[]::integer[], ARRAY[]::double precision[])
FROM "metric_hourly"
GROUP BY "metric_id", ("hour" AT TIME ZONE 'UTC')::date;

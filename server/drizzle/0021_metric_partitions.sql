-- The 1-minute points and the hourly aggregates grow by the hour and are purged by age: each becomes
-- a table partitioned by range on its time column, so the purge drops whole partitions instead of
-- deleting rows, and a query bounded in time reads only the partitions it needs. metric_point (kept
-- 48 hours) is cut by the hour, metric_hourly (kept 90 days) by the week (from Mondays, UTC).
-- metric_day stays as it is: 6 rows a VM a day, whose row-by-row purge is cheap, and a partitioned
-- copy read no better for the analysis within the noise (bench/purge).
-- Each has a DEFAULT partition, so a row at a time no partition covers yet still lands; the
-- maintenance (partition_ensure, run by the metrics purge) moves such rows into the partition it
-- creates for them. Partitions are named <table>_p<YYYYMMDDHH24 of their start, UTC>. The rows
-- already written are not copied: each table as it was becomes the partition of everything before
-- the end of the present stride (partition_adopt), dropped whole once that is past retention.

-- Creates the partitions of `parent` (range on `key`, cut every `stride` from 2000-01-03T00:00Z, a
-- Monday) covering from_time to to_time, moving in what the default partition holds for each.
-- A partition is built beside the table and attached (which does not stop readers or writers);
-- one that cannot get its locks within the lock timeout is left to the next run. Returns how many
-- were created.
CREATE FUNCTION partition_ensure(parent text, key text, stride interval, from_time timestamptz, to_time timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  origin constant timestamptz := '2000-01-03T00:00:00Z';
  is_date boolean;
  low timestamptz := date_bin(stride, from_time, origin);
  high timestamptz;
  child text;
  low_literal text;
  high_literal text;
  created integer := 0;
BEGIN
  SELECT atttypid = 'date'::regtype INTO is_date
  FROM pg_attribute WHERE attrelid = parent::regclass AND attname = key;
  WHILE low <= to_time LOOP
    -- In UTC: a day added in a session's own time zone may be 23 or 25 hours.
    high := ((low AT TIME ZONE 'UTC') + stride) AT TIME ZONE 'UTC';
    child := parent || '_p' || to_char(low AT TIME ZONE 'UTC', 'YYYYMMDDHH24');
    IF to_regclass(child) IS NULL THEN
      IF is_date THEN
        low_literal := to_char(low AT TIME ZONE 'UTC', 'YYYY-MM-DD');
        high_literal := to_char(high AT TIME ZONE 'UTC', 'YYYY-MM-DD');
      ELSE
        low_literal := to_char(low AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
        high_literal := to_char(high AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
      END IF;
      BEGIN
        EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', child, parent);
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)',
          child, child || '_range', key, low_literal, key, high_literal);
        EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
          parent || '_default', key, low_literal, key, high_literal, child);
        EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
          parent, child, low_literal, high_literal);
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', child, child || '_range');
        created := created + 1;
      EXCEPTION WHEN lock_not_available OR check_violation THEN
        -- A lock not had in time, or a row for the range written into the default partition
        -- after the move: the next run makes the partition.
        NULL;
      END;
    END IF;
    low := high;
  END LOOP;
  RETURN created;
END $$;
--> statement-breakpoint
-- Drops the partitions of `parent` (cut every `stride`) that end at or before `cutoff`, and deletes
-- the default partition's rows older than it. A partition that straddles the cutoff is kept whole
-- until it is wholly past: its older rows outlive the retention by less than one stride. A drop
-- that cannot get its lock within the lock timeout is left to the next run. Returns the partitions
-- dropped and the rows deleted.
CREATE FUNCTION partition_purge(parent text, key text, stride interval, cutoff timestamptz, OUT dropped integer, OUT deleted bigint)
LANGUAGE plpgsql AS $$
DECLARE
  child text;
  high timestamptz;
  count bigint;
BEGIN
  dropped := 0;
  deleted := 0;
  FOR child IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent::regclass AND c.relname ~ ('^' || parent || '_p[0-9]{10}$')
    ORDER BY c.relname
  LOOP
    -- The start its name gives, read as UTC wall-clock time whatever the session's time zone.
    high := ((substr(right(child, 10), 1, 8) || ' ' || substr(right(child, 10), 9, 2) || ':00')::timestamp + stride)
      AT TIME ZONE 'UTC';
    EXIT WHEN high > cutoff;
    BEGIN
      EXECUTE format('DROP TABLE %I', child);
      dropped := dropped + 1;
    EXCEPTION WHEN lock_not_available THEN
      NULL;
    END;
  END LOOP;
  EXECUTE format('DELETE FROM %I WHERE %I < %L', parent || '_default', key,
    CASE WHEN (SELECT atttypid = 'date'::regtype FROM pg_attribute WHERE attrelid = parent::regclass AND attname = key)
      THEN to_char(cutoff AT TIME ZONE 'UTC', 'YYYY-MM-DD')
      ELSE to_char(cutoff AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END);
  GET DIAGNOSTICS count = ROW_COUNT;
  deleted := count;
END $$;
--> statement-breakpoint
-- Makes the table `old` (the unpartitioned table as it was) the partition of `parent` holding
-- every row before the end of the stride now falls in, without copying them: rows at or past that
-- end (a clock ahead) are moved into the parent first (its default partition), the table is renamed
-- as that stride's partition, so partition_purge drops it whole once its last hour is past
-- retention, and attached FROM (MINVALUE). Its key and indexes, matching the parent's, become the
-- partition's own.
CREATE FUNCTION partition_adopt(parent text, old text, key text, stride interval) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  low timestamptz := date_bin(stride, now(), '2000-01-03T00:00:00Z');
  child text := parent || '_p' || to_char(low AT TIME ZONE 'UTC', 'YYYYMMDDHH24');
  high_literal text;
BEGIN
  IF (SELECT atttypid = 'date'::regtype FROM pg_attribute WHERE attrelid = parent::regclass AND attname = key) THEN
    high_literal := to_char((low AT TIME ZONE 'UTC') + stride, 'YYYY-MM-DD');
  ELSE
    high_literal := to_char((low AT TIME ZONE 'UTC') + stride, 'YYYY-MM-DD"T"HH24:MI:SS"Z"');
  END IF;
  EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
    old, key, high_literal, parent);
  EXECUTE format('ALTER TABLE %I RENAME TO %I', old, child);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I < %L)', child, child || '_range', key, high_literal);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', parent, child, high_literal);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', child, child || '_range');
END $$;
--> statement-breakpoint
ALTER TABLE "metric_point" RENAME TO "metric_point_unpartitioned";--> statement-breakpoint
ALTER TABLE "metric_point_unpartitioned" RENAME CONSTRAINT "metric_point_metric_id_time_pk" TO "metric_point_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "metric_point_time_idx" RENAME TO "metric_point_unpartitioned_time_idx";--> statement-breakpoint
CREATE TABLE "metric_point" (
	"metric_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "metric_point_metric_id_time_pk" PRIMARY KEY("metric_id","time")
) PARTITION BY RANGE ("time");--> statement-breakpoint
ALTER TABLE "metric_point" ADD CONSTRAINT "metric_point_metric_id_metric_id_fk" FOREIGN KEY ("metric_id") REFERENCES "public"."metric"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "metric_point_time_idx" ON "metric_point" USING btree ("time");--> statement-breakpoint
CREATE TABLE "metric_point_default" PARTITION OF "metric_point" DEFAULT;--> statement-breakpoint
SELECT partition_adopt('metric_point', 'metric_point_unpartitioned', 'time', '1 hour');--> statement-breakpoint
SELECT partition_ensure('metric_point', 'time', '1 hour', now(), now() + interval '6 hours');--> statement-breakpoint
ALTER TABLE "metric_hourly" RENAME TO "metric_hourly_unpartitioned";--> statement-breakpoint
ALTER TABLE "metric_hourly_unpartitioned" RENAME CONSTRAINT "metric_hourly_metric_id_hour_pk" TO "metric_hourly_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "metric_hourly_hour_idx" RENAME TO "metric_hourly_unpartitioned_hour_idx";--> statement-breakpoint
CREATE TABLE "metric_hourly" (
	"metric_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"average" double precision NOT NULL,
	"maximum" double precision NOT NULL,
	"p95" double precision NOT NULL,
	CONSTRAINT "metric_hourly_metric_id_hour_pk" PRIMARY KEY ("metric_id", "hour") INCLUDE ("average", "maximum", "p95")
) PARTITION BY RANGE ("hour");--> statement-breakpoint
ALTER TABLE "metric_hourly" ADD CONSTRAINT "metric_hourly_metric_id_metric_id_fk" FOREIGN KEY ("metric_id") REFERENCES "public"."metric"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "metric_hourly_hour_idx" ON "metric_hourly" USING btree ("hour");--> statement-breakpoint
CREATE TABLE "metric_hourly_default" PARTITION OF "metric_hourly" DEFAULT;--> statement-breakpoint
SELECT partition_adopt('metric_hourly', 'metric_hourly_unpartitioned', 'hour', '7 days');--> statement-breakpoint
SELECT partition_ensure('metric_hourly', 'hour', '7 days', now(), now() + interval '7 days');--> statement-breakpoint
DROP FUNCTION partition_adopt(text, text, text, interval);

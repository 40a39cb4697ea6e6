-- The 1-minute points lose their foreign key to metric and their index on time alone. The key's
-- check (a FOR KEY SHARE lookup of metric per row) was a third of each insert, at 10,000 rows a
-- second for 100,000 VMs; the time index served only the row-by-row purge that partitions replaced
-- (migration 0021). Every read is by metric_id and time (the primary key), so a removed resource's
-- points are out of reach and are dropped with their hour's partition, within 49 hours; a removed
-- tenant's are deleted with it (deleteTenantPoints, in the tenant's delete).
ALTER TABLE "metric_point" DROP CONSTRAINT "metric_point_metric_id_metric_id_fk";
--> statement-breakpoint
DROP INDEX "metric_point_time_idx";

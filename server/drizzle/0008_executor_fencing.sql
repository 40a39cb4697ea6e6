DROP INDEX "scheduled_change_planned_key";--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "power_state_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD COLUMN "claim_token" uuid;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD COLUMN "expected_size" text;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD COLUMN "expected_power_state" text;--> statement-breakpoint
-- A database from before the rule may hold two changes in flight for one VM: the newest stays in
-- flight, the older ones end failed (their runs, if any, no longer match a row they may write).
UPDATE "scheduled_change" SET "state" = 'failed', "error" = 'Ended at upgrade: another change of this VM was in flight', "completed_at" = now()
WHERE "state" IN ('claimed', 'submitted') AND "id" NOT IN (
  SELECT max("id") FROM "scheduled_change" WHERE "state" IN ('claimed', 'submitted') GROUP BY "resource_id"
);--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_change_in_flight_key" ON "scheduled_change" USING btree ("resource_id") WHERE state in ('claimed', 'submitted');--> statement-breakpoint
CREATE INDEX "scheduled_change_lease_idx" ON "scheduled_change" USING btree ("lease_until") WHERE state in ('claimed', 'submitted');--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_change_planned_key" ON "scheduled_change" USING btree ("resource_id") WHERE state = 'planned' and origin in ('now', 'window', 'automated');
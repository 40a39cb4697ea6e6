ALTER TABLE "pipeline_approval" ADD COLUMN "carried_out_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "pipeline_approval_carried_out_idx" ON "pipeline_approval" USING btree ("team_id","carried_out_at") WHERE carried_out_at is not null;--> statement-breakpoint
CREATE INDEX "pipeline_run_team_idx" ON "pipeline_run" USING btree ("team_id","started_at");--> statement-breakpoint
UPDATE "pipeline_approval" SET "carried_out_at" = greatest("decided_at", "runs_after") WHERE "state" = 'done';

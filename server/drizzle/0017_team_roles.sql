CREATE TABLE "pipeline_open_approval" (
	"resource_id" uuid NOT NULL,
	"action_key" text NOT NULL,
	"approval_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "role" text DEFAULT 'Member' NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "joined_team_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "pipeline_open_approval" ADD CONSTRAINT "pipeline_open_approval_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_open_approval" ADD CONSTRAINT "pipeline_open_approval_approval_id_pipeline_approval_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."pipeline_approval"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pipeline_open_approval_key" ON "pipeline_open_approval" USING btree ("resource_id","action_key");--> statement-breakpoint
CREATE INDEX "pipeline_open_approval_approval_idx" ON "pipeline_open_approval" USING btree ("approval_id");--> statement-breakpoint
-- Existing members joined their team when their account was made; the first member of every team
-- (its creator) becomes its Owner.
UPDATE "app_user" SET "joined_team_at" = "created_at";--> statement-breakpoint
UPDATE "app_user" SET "role" = 'Owner'
WHERE "id" IN (SELECT DISTINCT ON ("team_id") "id" FROM "app_user" ORDER BY "team_id", "created_at", "id");

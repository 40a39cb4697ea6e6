CREATE TABLE "pipeline_approval" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"action" jsonb NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"proposed_by" uuid,
	"proposed_at" timestamp with time zone NOT NULL,
	"runs_after" timestamp with time zone NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pipeline_run_item" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"resource_id" uuid,
	"resource_arm_id" text NOT NULL,
	"resource_name" text NOT NULL,
	"resource_type" text NOT NULL,
	"subscription_id" text NOT NULL,
	"resource_group" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"detail" text NOT NULL,
	"annual_saving" double precision DEFAULT 0 NOT NULL,
	"recommendation_id" bigint,
	"approval_id" uuid
);
--> statement-breakpoint
CREATE TABLE "pipeline_run" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"trigger" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"started_by" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"matched" integer DEFAULT 0 NOT NULL,
	"acted" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"annual_saving" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipeline_streak" (
	"pipeline_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"count" integer NOT NULL,
	"last_matched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pipeline_streak_pipeline_id_resource_id_pk" PRIMARY KEY("pipeline_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "pipeline_version" (
	"pipeline_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipeline_version_pipeline_id_version_pk" PRIMARY KEY("pipeline_id","version")
);
--> statement-breakpoint
CREATE TABLE "pipeline" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"name" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"active_since" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD COLUMN "pipeline_run_id" uuid;--> statement-breakpoint
ALTER TABLE "pipeline_approval" ADD CONSTRAINT "pipeline_approval_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_approval" ADD CONSTRAINT "pipeline_approval_pipeline_id_pipeline_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipeline"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_approval" ADD CONSTRAINT "pipeline_approval_run_id_pipeline_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."pipeline_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_approval" ADD CONSTRAINT "pipeline_approval_proposed_by_app_user_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_approval" ADD CONSTRAINT "pipeline_approval_decided_by_app_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run_item" ADD CONSTRAINT "pipeline_run_item_run_id_pipeline_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."pipeline_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run_item" ADD CONSTRAINT "pipeline_run_item_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run_item" ADD CONSTRAINT "pipeline_run_item_recommendation_id_recommendation_id_fk" FOREIGN KEY ("recommendation_id") REFERENCES "public"."recommendation"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run_item" ADD CONSTRAINT "pipeline_run_item_approval_id_pipeline_approval_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."pipeline_approval"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run" ADD CONSTRAINT "pipeline_run_pipeline_id_pipeline_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipeline"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run" ADD CONSTRAINT "pipeline_run_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_run" ADD CONSTRAINT "pipeline_run_started_by_app_user_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_streak" ADD CONSTRAINT "pipeline_streak_pipeline_id_pipeline_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipeline"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_streak" ADD CONSTRAINT "pipeline_streak_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_version" ADD CONSTRAINT "pipeline_version_pipeline_id_pipeline_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipeline"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_version" ADD CONSTRAINT "pipeline_version_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline" ADD CONSTRAINT "pipeline_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline" ADD CONSTRAINT "pipeline_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline" ADD CONSTRAINT "pipeline_updated_by_app_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pipeline_approval_team_idx" ON "pipeline_approval" USING btree ("team_id","state");--> statement-breakpoint
CREATE INDEX "pipeline_approval_due_idx" ON "pipeline_approval" USING btree ("runs_after") WHERE state = 'approved';--> statement-breakpoint
CREATE INDEX "pipeline_run_item_run_idx" ON "pipeline_run_item" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "pipeline_run_item_approval_idx" ON "pipeline_run_item" USING btree ("approval_id") WHERE approval_id is not null;--> statement-breakpoint
CREATE INDEX "pipeline_run_pipeline_idx" ON "pipeline_run" USING btree ("pipeline_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pipeline_run_tick_key" ON "pipeline_run" USING btree ("pipeline_id","scheduled_for") WHERE "trigger" = 'schedule';--> statement-breakpoint
CREATE INDEX "pipeline_team_idx" ON "pipeline" USING btree ("team_id","updated_at");--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD CONSTRAINT "scheduled_change_pipeline_run_id_pipeline_run_id_fk" FOREIGN KEY ("pipeline_run_id") REFERENCES "public"."pipeline_run"("id") ON DELETE set null ON UPDATE no action;
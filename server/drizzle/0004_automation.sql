CREATE TABLE "automation_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"resource_id" uuid,
	"resource_arm_id" text NOT NULL,
	"friendly_name" text NOT NULL,
	"prediction_method" text NOT NULL,
	"action" text NOT NULL,
	"scheduled_change_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommendation" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"prediction_method" text NOT NULL,
	"current_size" text,
	"target_size" text,
	"active_hours_start" smallint,
	"active_hours_end" smallint,
	"recommendation" text NOT NULL,
	"memo" text,
	"annual_cost_savings" double precision NOT NULL,
	"confidence" double precision,
	"evidence" jsonb,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scheduled_change" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"recommendation_id" bigint,
	"kind" text NOT NULL,
	"origin" text NOT NULL,
	"prediction_method" text,
	"previous_size" text,
	"new_size" text,
	"change_at" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'planned' NOT NULL,
	"was_running" boolean,
	"needs_deallocation" boolean,
	"step" text,
	"operation_url" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"guard_until" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_price" (
	"region" text NOT NULL,
	"size_name" text NOT NULL,
	"os_type" text NOT NULL,
	"hourly_price" double precision NOT NULL,
	"currency_code" text DEFAULT 'USD' NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vm_price_region_size_name_os_type_pk" PRIMARY KEY("region","size_name","os_type")
);
--> statement-breakpoint
CREATE TABLE "vm_size" (
	"region" text NOT NULL,
	"name" text NOT NULL,
	"family" text,
	"vcpus" integer NOT NULL,
	"memory_gib" double precision NOT NULL,
	"max_data_disks" integer,
	"uncached_disk_iops" integer,
	"max_nics" integer,
	"has_premium_io" boolean DEFAULT false NOT NULL,
	"has_accelerated_networking" boolean DEFAULT false NOT NULL,
	"is_available" boolean DEFAULT true NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vm_size_region_name_pk" PRIMARY KEY("region","name")
);
--> statement-breakpoint
ALTER TABLE "resource" ALTER COLUMN "prediction_method" SET DEFAULT 'cloudtrim-forecast';--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "os_type" text;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "data_disk_count" smallint;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "nic_count" smallint;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "has_premium_disk" boolean;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "has_accelerated_networking" boolean;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "recommendations_held_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "active_hours_boundary_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "lookback_days" smallint DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "default_maintenance_window" smallint DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant" ADD COLUMN "can_write" boolean;--> statement-breakpoint
ALTER TABLE "automation_log" ADD CONSTRAINT "automation_log_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_log" ADD CONSTRAINT "automation_log_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_log" ADD CONSTRAINT "automation_log_scheduled_change_id_scheduled_change_id_fk" FOREIGN KEY ("scheduled_change_id") REFERENCES "public"."scheduled_change"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation" ADD CONSTRAINT "recommendation_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation" ADD CONSTRAINT "recommendation_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation" ADD CONSTRAINT "recommendation_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD CONSTRAINT "scheduled_change_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD CONSTRAINT "scheduled_change_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD CONSTRAINT "scheduled_change_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD CONSTRAINT "scheduled_change_recommendation_id_recommendation_id_fk" FOREIGN KEY ("recommendation_id") REFERENCES "public"."recommendation"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_log_team_idx" ON "automation_log" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "automation_log_team_resource_idx" ON "automation_log" USING btree ("team_id",lower("resource_arm_id"),"id");--> statement-breakpoint
CREATE INDEX "recommendation_team_idx" ON "recommendation" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "recommendation_resource_idx" ON "recommendation" USING btree ("resource_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recommendation_open_key" ON "recommendation" USING btree ("resource_id","kind") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "scheduled_change_team_idx" ON "scheduled_change" USING btree ("team_id","change_at");--> statement-breakpoint
CREATE INDEX "scheduled_change_due_idx" ON "scheduled_change" USING btree ("change_at") WHERE state = 'planned';--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_change_planned_key" ON "scheduled_change" USING btree ("resource_id") WHERE state = 'planned';--> statement-breakpoint
CREATE INDEX "scheduled_change_guard_idx" ON "scheduled_change" USING btree ("guard_until") WHERE guard_until is not null;--> statement-breakpoint
UPDATE "resource" SET "prediction_method" = 'cloudtrim-forecast' WHERE "prediction_method" = 'p95-14d';

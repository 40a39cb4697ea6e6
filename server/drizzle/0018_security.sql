CREATE TABLE "security_finding_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"finding_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by" text,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "security_finding" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"check_id" text NOT NULL,
	"resource_id" text NOT NULL,
	"resource_key" text NOT NULL,
	"resource_name" text NOT NULL,
	"resource_group" text DEFAULT '' NOT NULL,
	"resource_tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"severity" text NOT NULL,
	"evidence" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"mute_reason" text,
	"muted_until" date,
	"muted_by" text,
	"muted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "security_mute_rule" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"check_id" text NOT NULL,
	"resource_group" text,
	"tag_key" text,
	"tag_value" text,
	"reason" text NOT NULL,
	"until" date NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "security_scan" (
	"team_id" uuid PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "security_score" (
	"tenant_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"day" date NOT NULL,
	"defender_enabled" boolean NOT NULL,
	"current" double precision,
	"max" double precision,
	"percentage" double precision,
	CONSTRAINT "security_score_tenant_id_subscription_id_day_pk" PRIMARY KEY("tenant_id","subscription_id","day")
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "security_mails" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "security_finding_event" ADD CONSTRAINT "security_finding_event_finding_id_security_finding_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."security_finding"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_finding" ADD CONSTRAINT "security_finding_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_finding" ADD CONSTRAINT "security_finding_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_mute_rule" ADD CONSTRAINT "security_mute_rule_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_scan" ADD CONSTRAINT "security_scan_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_score" ADD CONSTRAINT "security_score_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "security_finding_event_finding_idx" ON "security_finding_event" USING btree ("finding_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "security_finding_identity_key" ON "security_finding" USING btree ("tenant_id","check_id","resource_key");--> statement-breakpoint
CREATE INDEX "security_finding_team_idx" ON "security_finding" USING btree ("team_id","resolved_at");--> statement-breakpoint
CREATE INDEX "security_mute_rule_team_idx" ON "security_mute_rule" USING btree ("team_id");
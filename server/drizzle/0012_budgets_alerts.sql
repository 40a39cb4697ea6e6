CREATE TABLE "alert" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"title" text NOT NULL,
	"scope" text NOT NULL,
	"filter" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"day" date NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"amount" double precision NOT NULL,
	"expected" double precision,
	"currency" text NOT NULL,
	"drivers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid
);
--> statement-breakpoint
CREATE TABLE "budget_crossing" (
	"budget_id" uuid NOT NULL,
	"threshold_key" text NOT NULL,
	"period_start" date NOT NULL,
	"crossed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "budget_crossing_budget_id_threshold_key_period_start_pk" PRIMARY KEY("budget_id","threshold_key","period_start")
);
--> statement-breakpoint
CREATE TABLE "budget" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"name" text NOT NULL,
	"tenant_id" uuid,
	"subscription_id" text,
	"resource_group" text,
	"tag" text,
	"amount" numeric(14, 2) NOT NULL,
	"period" text NOT NULL,
	"start_date" date NOT NULL,
	"cost_type" text NOT NULL,
	"thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "budget_mails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "anomaly_mails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert" ADD CONSTRAINT "alert_acknowledged_by_app_user_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_crossing" ADD CONSTRAINT "budget_crossing_budget_id_budget_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budget"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget" ADD CONSTRAINT "budget_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget" ADD CONSTRAINT "budget_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_team_dedupe_key" ON "alert" USING btree ("team_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "alert_team_raised_idx" ON "alert" USING btree ("team_id","raised_at","id");--> statement-breakpoint
CREATE INDEX "budget_team_idx" ON "budget" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "budget_tenant_idx" ON "budget" USING btree ("tenant_id");
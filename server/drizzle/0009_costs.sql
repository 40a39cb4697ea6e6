CREATE TABLE "cost_day" (
	"tenant_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"resource_id" text NOT NULL,
	"service_name" text NOT NULL,
	"resource_group" text NOT NULL,
	"actual_cost" double precision DEFAULT 0 NOT NULL,
	"amortized_cost" double precision DEFAULT 0 NOT NULL,
	"usage_quantity" double precision DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"actual_read_id" uuid,
	"amortized_read_id" uuid,
	"day" date NOT NULL,
	CONSTRAINT "cost_day_tenant_id_subscription_id_day_resource_id_service_name_pk" PRIMARY KEY("tenant_id","subscription_id","day","resource_id","service_name")
);
--> statement-breakpoint
CREATE TABLE "cost_month" (
	"tenant_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"resource_id" text NOT NULL,
	"service_name" text NOT NULL,
	"resource_group" text NOT NULL,
	"actual_cost" double precision DEFAULT 0 NOT NULL,
	"amortized_cost" double precision DEFAULT 0 NOT NULL,
	"usage_quantity" double precision DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"actual_read_id" uuid,
	"amortized_read_id" uuid,
	"month" date NOT NULL,
	CONSTRAINT "cost_month_tenant_id_subscription_id_month_resource_id_service_name_pk" PRIMARY KEY("tenant_id","subscription_id","month","resource_id","service_name")
);
--> statement-breakpoint
CREATE TABLE "cost_sync" (
	"tenant_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"plan" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"not_before" timestamp with time zone,
	"backfilled_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone,
	"denied_at" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cost_sync_tenant_id_subscription_id_pk" PRIMARY KEY("tenant_id","subscription_id")
);
--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "tags" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cost_day" ADD CONSTRAINT "cost_day_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_month" ADD CONSTRAINT "cost_month_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_sync" ADD CONSTRAINT "cost_sync_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cost_day_tenant_day_idx" ON "cost_day" USING btree ("tenant_id","day");--> statement-breakpoint
CREATE INDEX "cost_day_resource_idx" ON "cost_day" USING btree ("tenant_id","resource_id","day");--> statement-breakpoint
CREATE INDEX "cost_month_tenant_month_idx" ON "cost_month" USING btree ("tenant_id","month");
CREATE TABLE "cost_day_total" (
	"tenant_id" uuid NOT NULL,
	"subscription_id" text NOT NULL,
	"day" date NOT NULL,
	"service_name" text NOT NULL,
	"actual_cost" double precision NOT NULL,
	"amortized_cost" double precision NOT NULL,
	CONSTRAINT "cost_day_total_tenant_id_subscription_id_day_service_name_pk" PRIMARY KEY("tenant_id","subscription_id","day","service_name")
);
--> statement-breakpoint
ALTER TABLE "cost_day_total" ADD CONSTRAINT "cost_day_total_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cost_day_total_tenant_day_idx" ON "cost_day_total" USING btree ("tenant_id","day");--> statement-breakpoint
-- The totals of the bill already read.
INSERT INTO "cost_day_total" ("tenant_id", "subscription_id", "day", "service_name", "actual_cost", "amortized_cost")
SELECT "tenant_id", "subscription_id", "day", "service_name", sum("actual_cost"), sum("amortized_cost")
FROM "cost_day"
GROUP BY "tenant_id", "subscription_id", "day", "service_name";

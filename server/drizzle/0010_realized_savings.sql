CREATE TABLE "realized_saving" (
	"scheduled_change_id" bigint PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	"expected_annual" double precision NOT NULL,
	"realized_annual" double precision NOT NULL,
	"before_hourly" double precision,
	"after_hourly" double precision,
	"before_daily" double precision NOT NULL,
	"after_daily" double precision NOT NULL,
	"measured_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realized_saving" ADD CONSTRAINT "realized_saving_scheduled_change_id_scheduled_change_id_fk" FOREIGN KEY ("scheduled_change_id") REFERENCES "public"."scheduled_change"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realized_saving" ADD CONSTRAINT "realized_saving_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "realized_saving" ADD CONSTRAINT "realized_saving_tenant_id_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenant"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "realized_saving_team_idx" ON "realized_saving" USING btree ("team_id","applied_at");
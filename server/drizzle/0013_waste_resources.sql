CREATE TABLE "waste_price" (
	"region" text NOT NULL,
	"kind" text NOT NULL,
	"sku_name" text NOT NULL,
	"variant" text DEFAULT '' NOT NULL,
	"unit_price" double precision NOT NULL,
	"unit" text NOT NULL,
	"currency_code" text DEFAULT 'USD' NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "waste_price_region_kind_sku_name_variant_pk" PRIMARY KEY("region","kind","sku_name","variant")
);
--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "resource" ADD COLUMN "state_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scheduled_change" ADD COLUMN "snapshot_id" text;
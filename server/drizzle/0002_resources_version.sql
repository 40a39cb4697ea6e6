ALTER TABLE "tenant" ADD COLUMN "resources_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "resource_subscription_idx" ON "resource" USING btree ("subscription_id");
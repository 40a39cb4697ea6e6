CREATE TABLE "resource_state_dating" (
	"resource_id" uuid PRIMARY KEY NOT NULL,
	"state_since" timestamp with time zone NOT NULL,
	"source" text,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "resource_state_dating" ADD CONSTRAINT "resource_state_dating_resource_id_resource_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resource"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "team_pipeline_limit" (
	"team_id" uuid PRIMARY KEY NOT NULL,
	"blast_radius_per_hour" integer DEFAULT 50 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_pipeline_limit" ADD CONSTRAINT "team_pipeline_limit_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;
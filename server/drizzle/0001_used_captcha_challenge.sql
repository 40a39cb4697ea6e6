CREATE TABLE "used_captcha_challenge" (
	"challenge" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "used_captcha_challenge_expires_idx" ON "used_captcha_challenge" USING btree ("expires_at");
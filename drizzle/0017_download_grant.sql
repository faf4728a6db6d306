ALTER TABLE "download_log" ADD COLUMN "grant_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "download_log_grant_idx" ON "download_log" USING btree ("grant_id");
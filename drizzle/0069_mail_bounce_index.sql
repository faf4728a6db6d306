-- Insights counts bounced mails per day: the few bounced rows, by the day the mail was created.
CREATE INDEX IF NOT EXISTS "mail_log_bounced_idx" ON "mail_log" USING btree ("created_at") WHERE "mail_log"."bounced_at" is not null;--> statement-breakpoint
-- A passed trip is its own tile, not Needs attention (decision 391): an order whose only warning is its
-- past arrival has check level 0.
UPDATE "orders" SET "check_level" = 0
WHERE "check_level" = 1
  AND NOT jsonb_path_exists("checks", '$[*] ? (@.severity == "warn" && @.code != "arrival_past")');

-- A mail's template values are frozen when it is queued (an internal remark added later never reaches it);
-- a mail caused by a move or macro is held until hold_until (the undo window) and may be cancelled.
ALTER TABLE "mail_log" ADD COLUMN IF NOT EXISTS "template_values" jsonb;--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN IF NOT EXISTS "hold_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_log" DROP CONSTRAINT IF EXISTS "mail_log_status_ck";--> statement-breakpoint
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_status_ck" CHECK ("mail_log"."status" in ('queued', 'sending', 'sent', 'retrying', 'failed', 'cancelled'));--> statement-breakpoint
-- The customer-mail limits count one member's recent mails of every kind without scanning the log.
CREATE INDEX IF NOT EXISTS "mail_log_requester_idx" ON "mail_log" USING btree ("requested_by","created_at") WHERE "mail_log"."requested_by" is not null;

-- A sent mail keeps the subject it went out with (the conversation shows which mail an answer answers);
-- a customer message matched by its sender alone, without authentication, is marked so and moves nothing.
ALTER TABLE "mail_log" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "sender_verified" boolean DEFAULT true NOT NULL;

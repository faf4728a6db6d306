ALTER TABLE "insights_daily" ADD COLUMN "completed_due" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "insights_daily" ADD COLUMN "completed_on_time" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "due_at" timestamp with time zone;
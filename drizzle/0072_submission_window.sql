-- The submission window: with a window set, a New order's processing date is the
-- day its window opens (so Future Orders, the month tiles, the counters and the due time follow it);
-- the processing date it came with is kept beside it, and the moment the window opens is on the row.
ALTER TABLE "orders" ADD COLUMN "ordered_processing_date" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "submission_opens_at" timestamp with time zone;

-- The insights backlog counts the open orders of the last seven days by age and folder. This partial
-- index holds only open orders and carries every column that count reads, so it is an index-only scan
-- of about a week of open orders instead of a heap read of every order created that week.
CREATE INDEX IF NOT EXISTS "orders_open_recent_idx" ON "orders" ("created_at") INCLUDE ("process_status", "processing_date", "assigned_to", "processing_mode") WHERE "process_status" NOT IN ('Completed', 'Deleted', 'Refunded');

-- A total under a nationality filter sums that nationality's counter rows (docs/decisions/280): with
-- every column the sum reads in the index, it is an index-only scan (1.3 ms instead of 3.5 ms for the
-- most common nationality's 4,500 rows at 1,000,000 orders).
CREATE INDEX IF NOT EXISTS "order_nationality_counts_sum_idx" ON "order_nationality_counts" USING btree ("nationality") INCLUDE ("process_status", "processing_mode", "assigned_to", "due_date", "n");

-- The job API's queue: the unassigned New orders by due time (Standard and Priority together, as the
-- machines take them). A claim walks this index from the front and stops at the first order it can
-- lock, instead of reading and sorting every waiting order.
CREATE INDEX "orders_submission_queue_idx" ON "orders" USING btree ("due_at", "order_id") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is null;

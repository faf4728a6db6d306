-- The working queues list by due time unless another sort is asked (decision 332). New Orders and Priority
-- Order read orders_new_due_idx and orders_priority_due_idx; Pending Orders walked orders_status_due_idx past
-- every unassigned New order and My Orders walked orders_due_idx past every other member's orders. These
-- give each its own orders in due-time order, so page 1 reads 25 index entries.
CREATE INDEX IF NOT EXISTS "orders_pending_due_idx" ON "orders" USING btree ("due_at","order_id") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_my_due_idx" ON "orders" USING btree ("assigned_to","due_at","order_id") WHERE "orders"."process_status" not in ('Completed', 'Deleted', 'Refunded');

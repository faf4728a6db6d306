-- The working queues' default pages (New Orders, Priority Orders, Pending Orders, My Orders) read their
-- groups in due order and keep the rows of the group they read (trip ahead or passed, answered or not,
-- processing day reached): with these columns in the index, that reading never visits the table.
DROP INDEX IF EXISTS "orders_new_due_idx";--> statement-breakpoint
CREATE INDEX "orders_new_due_idx" ON "orders" USING btree ("due_at","order_id") INCLUDE ("customer_replied_at","trip_ends_at","processing_date") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is null and "orders"."processing_mode" <> 'Priority';--> statement-breakpoint
DROP INDEX IF EXISTS "orders_priority_due_idx";--> statement-breakpoint
CREATE INDEX "orders_priority_due_idx" ON "orders" USING btree ("due_at","order_id") INCLUDE ("customer_replied_at","trip_ends_at","processing_date") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is null and "orders"."processing_mode" = 'Priority';--> statement-breakpoint
DROP INDEX IF EXISTS "orders_pending_due_idx";--> statement-breakpoint
CREATE INDEX "orders_pending_due_idx" ON "orders" USING btree ("due_at","order_id") INCLUDE ("customer_replied_at","trip_ends_at","processing_date") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is not null;--> statement-breakpoint
DROP INDEX IF EXISTS "orders_my_due_idx";--> statement-breakpoint
CREATE INDEX "orders_my_due_idx" ON "orders" USING btree ("assigned_to","due_at","order_id") INCLUDE ("customer_replied_at","trip_ends_at","processing_date") WHERE "orders"."process_status" not in ('Completed', 'Deleted', 'Refunded');

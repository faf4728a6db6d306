-- The routing pass's waiting orders: the unassigned New orders (New Orders and Priority Orders) in the
-- order the pass hands them out, Priority first, then oldest first. The pass walks this index and stops
-- at its batch, instead of reading and sorting every New order.
CREATE INDEX "orders_routing_queue_idx" ON "orders" USING btree ((("processing_mode" = 'Priority')) DESC, "created_at", "order_id") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is null;--> statement-breakpoint
-- The same orders by processing day: how many of them are due is read from this index alone, so a
-- queue with few or none due reads those by id instead of walking past every Future order.
CREATE INDEX "orders_new_unassigned_day_idx" ON "orders" USING btree ("processing_date", "order_id") WHERE "orders"."process_status" = 'New' and "orders"."assigned_to" is null;

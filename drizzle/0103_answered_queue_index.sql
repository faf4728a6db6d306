-- Claim-next hands out a customer's unread answer first (decision 360): the open unassigned orders with
-- an unread answer, per status in arrival order, so a claim reads the few answered orders of its folder
-- in the order it takes them (decision 428) instead of every unassigned answered order of any status.
CREATE INDEX "orders_answered_queue_idx" ON "orders" USING btree ("process_status", "arrival_date", "created_at", "order_id") WHERE "orders"."customer_replied_at" is not null and "orders"."assigned_to" is null and "orders"."process_status" not in ('Completed', 'Deleted', 'Refunded');

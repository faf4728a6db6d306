-- The submission windows of New orders by their opening moment: the background job that opens them at the exact
-- hour reads the next one to come and the ones whose moment came from this index.
CREATE INDEX "orders_submission_opening_idx" ON "orders" USING btree ("submission_opens_at") WHERE "orders"."process_status" = 'New' and "orders"."submission_opens_at" is not null;

DROP INDEX "orders_due_idx";--> statement-breakpoint
CREATE INDEX "orders_due_idx" ON "orders" USING btree ("due_at","order_id");
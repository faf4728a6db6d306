-- Staff notices to an address without an account (the dispute band alert to MANAGER_ALERT_EMAIL), and the
-- indexes the dispute ratios read by (docs/product.md, "Dispute ratios").
ALTER TABLE "staff_notices" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_disputes_closed_idx" ON "payment_disputes" USING btree ("closed_at");--> statement-breakpoint
CREATE INDEX "orders_created_at_amount_idx" ON "orders" USING btree ("created_at") WHERE "orders"."amount" > 0;

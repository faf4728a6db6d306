-- Every refund carries a reason code (docs/product.md, "Refund reasons"): on the order (set when it is
-- sent to Refunds or refunded; a request without one records 'unspecified') and on each provider refund.
ALTER TABLE "orders" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_reason_text" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_reason_ck" CHECK ("orders"."refund_reason" in ('customer_request', 'duplicate', 'government_rejected', 'fraud_warning', 'service_failure', 'chargeback_prevention', 'other', 'unspecified'));--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "reason_code" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "reason_text" text;--> statement-breakpoint
CREATE INDEX "orders_refund_reason_idx" ON "orders" USING btree ("refund_reason", "refund_date") WHERE "orders"."refund_reason" is not null;

-- A refund is never made twice (decision 354): an attempt records the payment it refunds and, while a
-- request talks to the provider about it, a lease (in_flight_until) taken under the order's row lock.
-- An attempt whose outcome is unknown stays pending under its idempotency key.
ALTER TABLE "payment_refunds" ADD COLUMN "payment_ref" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "in_flight_until" timestamp with time zone;--> statement-breakpoint
UPDATE "payment_refunds" SET "status" = 'pending' WHERE "status" = 'unknown';

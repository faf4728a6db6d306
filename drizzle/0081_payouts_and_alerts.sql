-- The provider's payouts and their balance transactions (docs/product.md, "Payouts and the margin of
-- every order"), the runs of the payout sync, and staff notices to an address without an account (the
-- dispute band alert to MANAGER_ALERT_EMAIL).
ALTER TABLE "staff_notices" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
CREATE TABLE "payment_payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"payout_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"arrival_date" timestamp with time zone,
	"created" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_payouts_uq" UNIQUE("provider","payout_id")
);--> statement-breakpoint
CREATE TABLE "payment_balance_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"txn_id" text NOT NULL,
	"payout_id" text NOT NULL,
	"type" text NOT NULL,
	"category" text NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"net" bigint NOT NULL,
	"currency" text NOT NULL,
	"source_id" text,
	"charge_id" text,
	"payment_intent_id" text,
	"order_id" bigint,
	"created" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_balance_transactions_uq" UNIQUE("provider","txn_id"),
	CONSTRAINT "payment_balance_transactions_category_ck" CHECK ("payment_balance_transactions"."category" in ('charge', 'refund', 'dispute', 'dispute_fee', 'adjustment', 'payout', 'other'))
);--> statement-breakpoint
ALTER TABLE "payment_balance_transactions" ADD CONSTRAINT "payment_balance_transactions_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_balance_transactions_order_idx" ON "payment_balance_transactions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_balance_transactions_created_idx" ON "payment_balance_transactions" USING btree ("created");--> statement-breakpoint
CREATE INDEX "payment_balance_transactions_unmatched_idx" ON "payment_balance_transactions" USING btree ("created") WHERE "payment_balance_transactions"."order_id" is null;--> statement-breakpoint
CREATE TABLE "payout_sync_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"requested_by" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"payouts" integer DEFAULT 0 NOT NULL,
	"transactions" integer DEFAULT 0 NOT NULL,
	"new_transactions" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "payout_sync_runs_status_ck" CHECK ("payout_sync_runs"."status" in ('queued', 'running', 'done', 'failed'))
);--> statement-breakpoint
ALTER TABLE "payout_sync_runs" ADD CONSTRAINT "payout_sync_runs_requested_by_staff_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_disputes_closed_idx" ON "payment_disputes" USING btree ("closed_at");--> statement-breakpoint
CREATE INDEX "orders_created_at_amount_idx" ON "orders" USING btree ("created_at") WHERE "orders"."amount" > 0;

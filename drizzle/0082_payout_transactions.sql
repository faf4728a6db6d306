-- The provider's payouts and their balance transactions, synced (docs/product.md, "Finance report",
-- decision 374): one row per balance transaction, unique per provider and transaction id, matched to an
-- order by its charge, refund or dispute. Amounts in the currency's minor unit, signed as the provider
-- reports them.
CREATE TABLE "provider_payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"payout_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"arrival_at" timestamp with time zone,
	"transactions" integer DEFAULT 0 NOT NULL,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_payouts_uq" UNIQUE("provider","payout_id")
);
--> statement-breakpoint
CREATE TABLE "payout_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"transaction_id" text NOT NULL,
	"payout_id" text NOT NULL,
	"type" text NOT NULL,
	"reporting_category" text,
	"amount" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"net" bigint NOT NULL,
	"currency" text NOT NULL,
	"source_id" text,
	"order_id" bigint,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_transactions_uq" UNIQUE("provider","transaction_id")
);
--> statement-breakpoint
ALTER TABLE "payout_transactions" ADD CONSTRAINT "payout_transactions_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_transactions_occurred_idx" ON "payout_transactions" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "payout_transactions_order_idx" ON "payout_transactions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payout_transactions_unmatched_idx" ON "payout_transactions" USING btree ("occurred_at") WHERE "payout_transactions"."order_id" is null;--> statement-breakpoint
CREATE INDEX "orders_submitted_at_idx" ON "orders" USING btree ("submitted_at") WHERE "orders"."submitted_at" is not null;

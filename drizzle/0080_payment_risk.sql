-- Acting on early fraud warnings and risky payments (docs/product.md, "Fraud warnings and risk"), and the
-- figures the card networks watch (docs/product.md, "Dispute ratios").
CREATE TABLE "payment_policy" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"auto_refund_fraud_warnings" boolean DEFAULT true NOT NULL,
	"dispute_watch_percent" numeric(6, 3) DEFAULT '0.5' NOT NULL,
	"dispute_excessive_percent" numeric(6, 3) DEFAULT '0.75' NOT NULL,
	"notified_month" text,
	"notified_band" text,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_policy_single_ck" CHECK ("payment_policy"."id" = 1),
	CONSTRAINT "payment_policy_bands_ck" CHECK ("payment_policy"."dispute_watch_percent" > 0 and "payment_policy"."dispute_watch_percent" < "payment_policy"."dispute_excessive_percent" and "payment_policy"."dispute_excessive_percent" <= 100)
);--> statement-breakpoint
ALTER TABLE "payment_policy" ADD CONSTRAINT "payment_policy_updated_by_staff_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "risk_level" text;--> statement-breakpoint
CREATE TABLE "payment_charges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"charge_id" text NOT NULL,
	"payment_intent_id" text,
	"order_id" bigint,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"brand" text NOT NULL,
	"risk_level" text,
	"charged_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_charges_uq" UNIQUE("provider","charge_id")
);--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_charges_order_idx" ON "payment_charges" USING btree ("order_id");--> statement-breakpoint
CREATE TABLE "payment_fraud_warnings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"warning_id" text NOT NULL,
	"order_id" bigint NOT NULL,
	"charge_id" text,
	"fraud_type" text NOT NULL,
	"action" text NOT NULL,
	"note" text,
	"handled_by" integer,
	"handled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_fraud_warnings_uq" UNIQUE("provider","warning_id"),
	CONSTRAINT "payment_fraud_warnings_action_ck" CHECK ("payment_fraud_warnings"."action" in ('refunding', 'refunded', 'refund_failed', 'review', 'kept', 'recorded'))
);--> statement-breakpoint
ALTER TABLE "payment_fraud_warnings" ADD CONSTRAINT "payment_fraud_warnings_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_fraud_warnings" ADD CONSTRAINT "payment_fraud_warnings_handled_by_staff_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_fraud_warnings_order_idx" ON "payment_fraud_warnings" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_fraud_warnings_created_idx" ON "payment_fraud_warnings" USING btree ("created_at");

ALTER TABLE "orders" ADD COLUMN "checks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "check_level" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "check_flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "needs_attention" boolean GENERATED ALWAYS AS ("check_level" > 0 and "process_status" in ('New', 'Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer')) STORED;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "passport_key" text GENERATED ALWAYS AS (nullif(upper(regexp_replace(coalesce("passport_number", ''), '[^A-Za-z0-9]', '', 'g')), '')) STORED;--> statement-breakpoint
CREATE INDEX "orders_needs_attention_idx" ON "orders" USING btree ("created_at" DESC, "order_id" DESC) WHERE "needs_attention";--> statement-breakpoint
CREATE INDEX "orders_passport_key_idx" ON "orders" USING btree ("passport_key", coalesce(lower(btrim("nationality")), '')) WHERE "passport_key" is not null;--> statement-breakpoint
CREATE TABLE "order_duplicate_decisions" (
	"order_id" bigint NOT NULL REFERENCES "orders"("order_id"),
	"other_order_id" bigint NOT NULL REFERENCES "orders"("order_id"),
	"decision" text NOT NULL,
	"decided_by" integer REFERENCES "staff_users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_duplicate_decisions_pk" PRIMARY KEY ("order_id", "other_order_id"),
	CONSTRAINT "order_duplicate_decisions_pair_ck" CHECK ("order_id" < "other_order_id"),
	CONSTRAINT "order_duplicate_decisions_decision_ck" CHECK ("decision" in ('duplicate', 'not_duplicate'))
);--> statement-breakpoint
CREATE INDEX "order_duplicate_decisions_other_idx" ON "order_duplicate_decisions" USING btree ("other_order_id");--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_action_ck";--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_action_ck" CHECK ("order_events"."action" in ('created', 'status', 'assign', 'takeover', 'remark', 'upload', 'withdraw', 'mail', 'transaction', 'customer_download', 'erase', 'language', 'correction', 'duplicate'));

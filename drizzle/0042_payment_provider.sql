-- Money through the payment provider (docs/decisions/300): disputes, refunds made through the provider, and
-- every webhook event received (applied once per event id).
CREATE TABLE "payment_disputes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"dispute_id" text NOT NULL,
	"order_id" bigint NOT NULL REFERENCES "orders"("order_id"),
	"charge_id" text,
	"payment_intent_id" text,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"due_by" timestamp with time zone,
	"evidence_file_id" text,
	"evidence_saved_at" timestamp with time zone,
	"evidence_submitted_at" timestamp with time zone,
	"evidence_by" integer REFERENCES "staff_users"("id"),
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_disputes_provider_dispute_uq" UNIQUE("provider","dispute_id")
);
--> statement-breakpoint
CREATE INDEX "payment_disputes_order_idx" ON "payment_disputes" USING btree ("order_id","created_at");
--> statement-breakpoint
CREATE INDEX "payment_disputes_created_idx" ON "payment_disputes" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL REFERENCES "orders"("order_id"),
	"provider" text NOT NULL,
	"source" text DEFAULT 'product' NOT NULL,
	"attempt" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text,
	"status" text NOT NULL,
	"refund_id" text,
	"error" text,
	"requested_by" integer REFERENCES "staff_users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_key_uq" UNIQUE("provider","idempotency_key"),
	CONSTRAINT "payment_refunds_source_ck" CHECK ("source" in ('product', 'outside')),
	CONSTRAINT "payment_refunds_status_ck" CHECK ("status" in ('pending', 'succeeded', 'failed', 'unknown'))
);
--> statement-breakpoint
CREATE INDEX "payment_refunds_order_idx" ON "payment_refunds" USING btree ("order_id","attempt");
--> statement-breakpoint
CREATE INDEX "payment_refunds_created_idx" ON "payment_refunds" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"object_id" text,
	"order_id" bigint,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_webhook_events_uq" UNIQUE("provider","event_id")
);
--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_action_ck";
--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_action_ck" CHECK ("order_events"."action" in ('created', 'status', 'assign', 'takeover', 'remark', 'upload', 'withdraw', 'mail', 'transaction', 'customer_download', 'erase', 'language', 'payment'));
--> statement-breakpoint
-- While a dispute waits for our evidence, the order's due time is the provider's evidence deadline; once the
-- evidence is in (under review) the order waits on the bank and has none. Fires after orders_due_at (names
-- sort), so it only overrides the policy's due time of a ChargeBack order with a dispute.
CREATE FUNCTION orders_dispute_due_set() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d timestamptz;
  s text;
BEGIN
  IF NEW.process_status <> 'ChargeBack' THEN RETURN NEW; END IF;
  SELECT due_by, status INTO d, s FROM payment_disputes
    WHERE order_id = NEW.order_id ORDER BY created_at DESC, id DESC LIMIT 1;
  IF NOT FOUND THEN RETURN NEW; END IF;
  IF s IN ('needs_response', 'warning_needs_response') AND d IS NOT NULL THEN
    NEW.due_at := d;
  ELSIF s IN ('under_review', 'warning_under_review') THEN
    NEW.due_at := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_due_at_dispute BEFORE INSERT OR UPDATE OF process_status, processing_mode, created_at, processing_date, arrival_date, due_at
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_dispute_due_set();
--> statement-breakpoint
-- A dispute's deadline or status change gives its order the new due time in the same transaction.
CREATE FUNCTION payment_dispute_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders SET due_at = NULL WHERE order_id = NEW.order_id AND process_status = 'ChargeBack';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER payment_disputes_due AFTER INSERT OR UPDATE OF status, due_by ON payment_disputes
  FOR EACH ROW EXECUTE FUNCTION payment_dispute_changed();

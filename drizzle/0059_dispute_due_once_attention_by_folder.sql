-- A dispute's change re-reads its order's due time only when that can change it (docs/decisions/346). A dispute
-- opened for an order not yet in ChargeBack, or saved again with the same status and deadline, left the order as
-- it was but still ran an UPDATE of orders, and with it every statement trigger of orders (counters, reports,
-- insights); the move to ChargeBack sets the deadline itself (orders_due_at_dispute).
CREATE OR REPLACE FUNCTION payment_dispute_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cur timestamptz;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.status IS NOT DISTINCT FROM OLD.status
     AND NEW.due_by IS NOT DISTINCT FROM OLD.due_by THEN
    RETURN NULL;
  END IF;
  SELECT due_at INTO cur FROM orders WHERE order_id = NEW.order_id AND process_status = 'ChargeBack';
  IF NOT FOUND THEN RETURN NULL; END IF;
  -- The order already carries what its latest dispute gives it.
  IF NOT EXISTS (SELECT 1 FROM payment_disputes p WHERE p.order_id = NEW.order_id
                 AND (p.created_at, p.id) > (NEW.created_at, NEW.id)) THEN
    IF NEW.status IN ('needs_response', 'warning_needs_response') AND NEW.due_by IS NOT NULL
       AND cur IS NOT DISTINCT FROM NEW.due_by THEN
      RETURN NULL;
    END IF;
    IF NEW.status IN ('under_review', 'warning_under_review') AND cur IS NULL THEN RETURN NULL; END IF;
  END IF;
  UPDATE orders SET due_at = NULL WHERE order_id = NEW.order_id AND process_status = 'ChargeBack';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The "Needs attention" total of a folder (New Orders, Awaiting, ...) read a bitmap of the folder's index and
-- of orders_needs_attention_idx, then every matching heap page; this answers it from the index alone.
CREATE INDEX IF NOT EXISTS "orders_needs_attention_status_idx" ON "orders" USING btree ("process_status","processing_date","assigned_to","processing_mode") WHERE "orders"."needs_attention";

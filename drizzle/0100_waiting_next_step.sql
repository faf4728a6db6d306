-- The waiting policy reads only the orders with a step due: waiting_next_at is when the policy next looks
-- at an order in Awaiting (its next step's time). Entering Awaiting sets it to -infinity (the next pass
-- looks, whatever its clock, and works out the real time); the pass writes the next step's time after
-- each look; leaving Awaiting clears it.
-- Orders already waiting get their first reminder's time (a step already taken is found by the pass
-- and the order moved on to its next step's time).
ALTER TABLE "orders" ADD COLUMN "waiting_next_at" timestamp with time zone;--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_waiting_next_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.process_status = 'Awaiting' THEN
    IF TG_OP = 'INSERT' OR OLD.process_status IS DISTINCT FROM 'Awaiting' THEN
      NEW.waiting_next_at := '-infinity';
    END IF;
  ELSE
    NEW.waiting_next_at := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_waiting_next BEFORE INSERT OR UPDATE OF process_status ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_waiting_next_set();--> statement-breakpoint
SELECT set_config('edcard.bookkeeping', 'on', true);--> statement-breakpoint
UPDATE orders o SET waiting_next_at = coalesce(
    (SELECT max(e.created_at) FROM order_events e
     WHERE e.order_id = o.order_id AND e.action = 'status' AND e.to_value = 'Awaiting'),
    o.updated_at)
  + make_interval(mins => coalesce(
    (SELECT (value->>'remindAfterMinutes')::int FROM app_settings WHERE key = 'waitingPolicy'), 2880))
WHERE o.process_status = 'Awaiting';--> statement-breakpoint
SELECT set_config('edcard.bookkeeping', '', true);--> statement-breakpoint
CREATE INDEX "orders_waiting_next_idx" ON "orders" USING btree ("waiting_next_at") WHERE "orders"."process_status" = 'Awaiting';

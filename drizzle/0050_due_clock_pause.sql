-- The due clock pauses while an order waits on someone else, and an open order whose trip has passed is
-- its own state (docs/decisions/316). While the order is in a waiting status (Awaiting Customer, Awaiting
-- Govt, Refunds, ChargeBack) due_paused_at holds when the wait began and due_at is NULL (never late, never
-- at risk); when it comes back, the wait is added to due_paused_seconds and due_at is the policy's due
-- time pushed on by every wait so far. trip_ends_at is the end of the arrival day (service time) of an
-- order that is still worked (New, Awaiting, AwaitingGovt, Customer Called, Contact Customer), NULL
-- otherwise: from that moment the order is "Trip passed", not late.
ALTER TABLE "orders" ADD COLUMN "due_paused_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "due_paused_seconds" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "trip_ends_at" timestamp with time zone;
--> statement-breakpoint
-- The due time of an order row: NULL while paused, else the policy's due time plus the waits so far.
CREATE FUNCTION order_due_at(status text, mode text, created timestamptz, processing date, arrival date,
                             paused_at timestamptz, paused_seconds integer)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN paused_at IS NOT NULL THEN NULL
              ELSE sla_due_at(status, mode, created, processing, arrival) + make_interval(secs => paused_seconds) END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION orders_due_at_set() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  waiting boolean := NEW.process_status IN ('Awaiting', 'AwaitingGovt', 'Refunds', 'ChargeBack');
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.due_paused_at IS NOT NULL AND NOT waiting THEN
    -- Back from a wait: the clock resumes where it stopped.
    NEW.due_paused_seconds := OLD.due_paused_seconds
      + greatest(0, floor(extract(epoch FROM (now() - OLD.due_paused_at))))::integer;
    NEW.due_paused_at := NULL;
  ELSIF waiting AND (TG_OP = 'INSERT' OR OLD.due_paused_at IS NULL) THEN
    NEW.due_paused_at := coalesce(NEW.due_paused_at, now());
  ELSIF NOT waiting THEN
    NEW.due_paused_at := NULL;
  END IF;
  NEW.due_at := order_due_at(NEW.process_status, NEW.processing_mode, NEW.created_at, NEW.processing_date,
                             NEW.arrival_date, NEW.due_paused_at, NEW.due_paused_seconds);
  NEW.trip_ends_at := CASE
    WHEN NEW.process_status IN ('New', 'Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer')
      THEN (NEW.arrival_date + 1)::timestamp AT TIME ZONE 'America/New_York' END;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER orders_due_at ON orders;
--> statement-breakpoint
CREATE TRIGGER orders_due_at BEFORE INSERT OR UPDATE OF process_status, processing_mode, created_at, processing_date, arrival_date, due_at, due_paused_at, due_paused_seconds, trip_ends_at
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_due_at_set();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sla_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.key = 'sla' AND (TG_OP = 'INSERT' OR OLD.value->'modes' IS DISTINCT FROM NEW.value->'modes') THEN
    UPDATE orders SET due_at = NULL
    WHERE process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      AND due_at IS DISTINCT FROM order_due_at(process_status, processing_mode, created_at, processing_date,
                                               arrival_date, due_paused_at, due_paused_seconds);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A completion's due time (insights "on time") is the order's due time at that moment, waits included (a
-- wait still running counts up to the event's time, so recomputing an old event adds no later wait).
CREATE OR REPLACE FUNCTION order_events_due_at_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = 'status' AND NEW.to_value = 'Completed' THEN
    NEW.due_at := (
      SELECT sla_due_at(coalesce(NEW.from_value, 'New'), o.processing_mode, o.created_at, o.processing_date, o.arrival_date)
        + make_interval(secs => o.due_paused_seconds + CASE WHEN o.due_paused_at IS NULL THEN 0
                                 ELSE greatest(0, floor(extract(epoch FROM (NEW.created_at - o.due_paused_at))))::integer END)
      FROM orders o WHERE o.order_id = NEW.order_id);
  ELSE
    NEW.due_at := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Orders waiting now: paused since they entered their status (their last move), so the Late count is
-- right from the first day; every other open order gets its trip end.
UPDATE orders o SET due_paused_at = coalesce(
    (SELECT max(e.created_at) FROM order_events e WHERE e.order_id = o.order_id AND e.action = 'status'),
    o.updated_at)
  WHERE o.process_status IN ('Awaiting', 'AwaitingGovt', 'Refunds', 'ChargeBack');
--> statement-breakpoint
UPDATE orders SET due_at = NULL
  WHERE process_status IN ('New', 'Customer Called', 'Contact Customer');
--> statement-breakpoint
CREATE INDEX "orders_trip_ends_idx" ON "orders" USING btree ("trip_ends_at", "order_id") WHERE "orders"."trip_ends_at" is not null;

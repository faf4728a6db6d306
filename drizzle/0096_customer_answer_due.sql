-- The customer answer's own due-time rule (docs/product.md, "Working hours"): the due-time policy's
-- `customerAnswer: { hours, clock }` (null: none). A verified answer stores its moment in
-- answer_due_from; while it is set, the open order is due at the earlier of its own due time and the
-- answer plus the rule's hours (working hours where the rule says so). The order's next move clears it
-- (a move that sets it, the answer bringing the order back, keeps it).
ALTER TABLE "orders" ADD COLUMN "answer_due_from" timestamp with time zone;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION answer_due_at(answered timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN r->>'clock' = 'working'
    THEN working_add(answered, (r->>'hours')::int * 60)
    ELSE answered + make_interval(hours => (r->>'hours')::int) END
  FROM (SELECT value->'customerAnswer' AS r FROM app_settings WHERE key = 'dueTimePolicy') s
  WHERE answered IS NOT NULL AND jsonb_typeof(r) = 'object'
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
  -- A move answers the customer: the answer's target ends, unless this move is the answer's own.
  IF TG_OP = 'UPDATE' AND NEW.process_status IS DISTINCT FROM OLD.process_status
     AND NEW.answer_due_from IS NOT DISTINCT FROM OLD.answer_due_from THEN
    NEW.answer_due_from := NULL;
  END IF;
  IF NEW.process_status IN ('Completed', 'Refunded', 'Deleted') THEN
    NEW.answer_due_from := NULL;
  END IF;
  NEW.due_at := order_due_at(NEW.process_status, NEW.processing_mode, NEW.created_at, NEW.processing_date,
                             NEW.arrival_date, NEW.due_paused_at, NEW.due_paused_seconds);
  IF NEW.due_paused_at IS NULL AND NEW.answer_due_from IS NOT NULL THEN
    -- least() skips a null: without a rule the order keeps its due time.
    NEW.due_at := least(NEW.due_at, answer_due_at(NEW.answer_due_from));
  END IF;
  NEW.trip_ends_at := CASE
    WHEN NEW.process_status IN ('New', 'Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer')
      THEN (NEW.arrival_date + 1)::timestamp AT TIME ZONE 'America/New_York' END;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER orders_due_at ON orders;
--> statement-breakpoint
CREATE TRIGGER orders_due_at BEFORE INSERT OR UPDATE OF process_status, processing_mode, created_at, processing_date, arrival_date, due_at, due_paused_at, due_paused_seconds, trip_ends_at, answer_due_from
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_due_at_set();
--> statement-breakpoint
-- The open orders' due times follow a change of the policy's rules (the customer answer's among them) or
-- of the working hours.
CREATE OR REPLACE FUNCTION due_time_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.key = 'dueTimePolicy' AND (TG_OP = 'INSERT'
        OR OLD.value->'modes' IS DISTINCT FROM NEW.value->'modes'
        OR OLD.value->'customerAnswer' IS DISTINCT FROM NEW.value->'customerAnswer'))
     OR (NEW.key = 'workingHours' AND (TG_OP = 'INSERT' OR OLD.value IS DISTINCT FROM NEW.value)) THEN
    UPDATE orders SET due_at = NULL
    WHERE process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      AND (answer_due_from IS NOT NULL
        OR due_at IS DISTINCT FROM order_due_at(process_status, processing_mode, created_at, processing_date,
                                                arrival_date, due_paused_at, due_paused_seconds));
  END IF;
  RETURN NULL;
END $$;

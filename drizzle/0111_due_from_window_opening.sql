-- A window that opens later in a day starts the order's due clock at its opening moment, not at the
-- start of the opening's day (docs/product.md, "Submitting to the government"; decision 437). The due
-- functions read the order's start as the later of its payment and its submission opening (`greatest`
-- skips a null: an order without a window starts at its payment, as before), and its processing date as
-- the one it came with (the window moves processing_date to the day after a later-in-the-day opening
-- until the opening comes; ordered_processing_date keeps the order's own).
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
  NEW.due_at := order_due_at(NEW.process_status, NEW.processing_mode,
                             greatest(NEW.created_at, NEW.submission_opens_at),
                             CASE WHEN NEW.submission_opens_at IS NULL THEN NEW.processing_date
                                  ELSE coalesce(NEW.ordered_processing_date, NEW.processing_date) END,
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
CREATE TRIGGER orders_due_at BEFORE INSERT OR UPDATE OF process_status, processing_mode, created_at, processing_date, arrival_date, due_at, due_paused_at, due_paused_seconds, trip_ends_at, answer_due_from, submission_opens_at, ordered_processing_date
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_due_at_set();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION due_time_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.key = 'dueTimePolicy' AND (TG_OP = 'INSERT'
        OR OLD.value->'modes' IS DISTINCT FROM NEW.value->'modes'
        OR OLD.value->'customerAnswer' IS DISTINCT FROM NEW.value->'customerAnswer'))
     OR (NEW.key = 'workingHours' AND (TG_OP = 'INSERT' OR OLD.value IS DISTINCT FROM NEW.value)) THEN
    UPDATE orders SET due_at = NULL
    WHERE process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      AND (answer_due_from IS NOT NULL
        OR due_at IS DISTINCT FROM order_due_at(process_status, processing_mode,
                                                greatest(created_at, submission_opens_at),
                                                CASE WHEN submission_opens_at IS NULL THEN processing_date
                                                     ELSE coalesce(ordered_processing_date, processing_date) END,
                                                arrival_date, due_paused_at, due_paused_seconds));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The due time a completion is measured against (Insights' on-time share) starts at the same moment.
CREATE OR REPLACE FUNCTION order_events_due_at_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = 'status' AND NEW.to_value = 'Completed' THEN
    NEW.due_at := (
      SELECT policy_due_at(coalesce(NEW.from_value, 'New'), o.processing_mode,
                           greatest(o.created_at, o.submission_opens_at),
                           CASE WHEN o.submission_opens_at IS NULL THEN o.processing_date
                                ELSE coalesce(o.ordered_processing_date, o.processing_date) END, o.arrival_date)
        + make_interval(secs => o.due_paused_seconds + CASE WHEN o.due_paused_at IS NULL THEN 0
                                 ELSE greatest(0, floor(extract(epoch FROM (NEW.created_at - o.due_paused_at))))::integer END)
      FROM orders o WHERE o.order_id = NEW.order_id);
  ELSE
    NEW.due_at := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- The open orders whose window opened later in a day get their due time from the opening now.
UPDATE orders SET due_at = NULL
WHERE submission_opens_at IS NOT NULL AND process_status NOT IN ('Completed', 'Refunded', 'Deleted');

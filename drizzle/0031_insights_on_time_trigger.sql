-- Completions on time (docs/decisions/270): each move to Completed keeps the due time its order had at
-- that moment in order_events.due_at, and insights_daily counts per day and actor the completions with a
-- due time (completed_due) and those at or before it (completed_on_time). The order's own due_at is
-- cleared when it is completed, so the event's due time is taken from the status it left (from_value):
-- sla_due_at of that status over the order's row is exactly the due_at the order had before the move,
-- whether the order row is written before or after its event in the transaction.
CREATE OR REPLACE FUNCTION order_events_due_at_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = 'status' AND NEW.to_value = 'Completed' THEN
    NEW.due_at := (
      SELECT sla_due_at(coalesce(NEW.from_value, 'New'), o.processing_mode, o.created_at, o.processing_date, o.arrival_date)
      FROM orders o WHERE o.order_id = NEW.order_id);
  ELSE
    NEW.due_at := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Like orders.due_at it is never written by hand: a write of it, or of what it depends on, recomputes it.
CREATE TRIGGER order_events_due_at_ins BEFORE INSERT ON order_events
  FOR EACH ROW WHEN (NEW.action = 'status' AND NEW.to_value = 'Completed' OR NEW.due_at IS NOT NULL)
  EXECUTE FUNCTION order_events_due_at_set();
--> statement-breakpoint
CREATE TRIGGER order_events_due_at_upd BEFORE UPDATE OF order_id, action, from_value, to_value, due_at ON order_events
  FOR EACH ROW EXECUTE FUNCTION order_events_due_at_set();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_events_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text := insights_changes_sql(TG_OP, 'id, order_id, actor_id, action, to_value, created_at, due_at');
  v_days date[];
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s)
    INSERT INTO insights_daily AS t (day, actor_id, completed, refunded, deleted, chargebacks, status_moves, remarks,
                                     completed_due, completed_on_time)
    SELECT d, a, sum(s * c), sum(s * r), sum(s * x), sum(s * b), sum(s * m), sum(s * k), sum(s * cd), sum(s * ct) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(actor_id, 0) AS a, s,
             (action = 'status' AND to_value = 'Completed')::int AS c,
             (action = 'status' AND to_value = 'Completed' AND due_at IS NOT NULL)::int AS cd,
             (action = 'status' AND to_value = 'Completed' AND coalesce(created_at <= due_at, false))::int AS ct,
             (action = 'status' AND to_value = 'Refunded')::int AS r,
             (action = 'status' AND to_value = 'Deleted')::int AS x,
             (action = 'status' AND to_value = 'ChargeBack')::int AS b,
             (action = 'status')::int AS m,
             (action = 'remark')::int AS k
      FROM ch WHERE action IN ('status', 'remark')
    ) y GROUP BY 1, 2
    HAVING sum(s * c) <> 0 OR sum(s * cd) <> 0 OR sum(s * ct) <> 0 OR sum(s * r) <> 0 OR sum(s * x) <> 0 OR sum(s * b) <> 0 OR sum(s * m) <> 0 OR sum(s * k) <> 0
    ORDER BY 1, 2
    ON CONFLICT (day, actor_id) DO UPDATE SET
      completed = t.completed + excluded.completed,
      refunded = t.refunded + excluded.refunded,
      deleted = t.deleted + excluded.deleted,
      chargebacks = t.chargebacks + excluded.chargebacks,
      status_moves = t.status_moves + excluded.status_moves,
      remarks = t.remarks + excluded.remarks,
      completed_due = t.completed_due + excluded.completed_due,
      completed_on_time = t.completed_on_time + excluded.completed_on_time
  $q$, src);
  EXECUTE format($q$
    WITH ch AS (%s)
    SELECT array_agg(DISTINCT (created_at AT TIME ZONE 'America/New_York')::date
                     ORDER BY (created_at AT TIME ZONE 'America/New_York')::date)
    FROM ch WHERE action = 'status' AND to_value = 'Completed'
  $q$, src) INTO v_days;
  IF v_days IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO insights_ttc_daily AS t (day) SELECT unnest(v_days) ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET completed = t.completed;
  -- Durations of each move to Completed: from payment (the order's created_at), and from the order's last
  -- assign event before it (by event id) when that event assigned someone.
  EXECUTE format($q$
    WITH ch AS (%s), c AS (SELECT * FROM ch WHERE action = 'status' AND to_value = 'Completed')
    INSERT INTO insights_duration_daily AS t (day, kind, actor_id, hours, n)
    SELECT d, k, a, h, sum(s) FROM (
      SELECT (c.created_at AT TIME ZONE 'America/New_York')::date AS d, 1 AS k, 0 AS a,
             floor(extract(epoch FROM (c.created_at - o.created_at)) / 3600)::int AS h, c.s
      FROM c JOIN orders o ON o.order_id = c.order_id
      UNION ALL
      SELECT (c.created_at AT TIME ZONE 'America/New_York')::date, 2, coalesce(c.actor_id, 0),
             floor(extract(epoch FROM (c.created_at - la.created_at)) / 3600)::int, c.s
      FROM c CROSS JOIN LATERAL (
        SELECT e.created_at, e.to_value FROM order_events e
        WHERE e.order_id = c.order_id AND e.action = 'assign' AND e.id < c.id
        ORDER BY e.id DESC LIMIT 1
      ) la
      WHERE la.to_value IS NOT NULL
    ) y GROUP BY 1, 2, 3, 4 HAVING sum(s) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (day, kind, actor_id, hours) DO UPDATE SET n = t.n + excluded.n
  $q$, src);
  PERFORM insights_ttc_refresh(v_days);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_truncate_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    UPDATE insights_daily SET received = 0 WHERE received <> 0;
  ELSIF TG_TABLE_NAME = 'order_events' THEN
    UPDATE insights_daily SET completed = 0, refunded = 0, deleted = 0, chargebacks = 0, status_moves = 0, remarks = 0,
      completed_due = 0, completed_on_time = 0;
    DELETE FROM insights_duration_daily;
    DELETE FROM insights_ttc_daily;
  ELSE
    DELETE FROM insights_mail_daily;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Existing completions: their due time under today's policy and the order's current fields (the due
-- times of the past were not kept; the update trigger above computes it). The backfill writes the events
-- with the rollup triggers off (it changes no value they count) and fills the two counters once.
ALTER TABLE order_events DISABLE TRIGGER insights_events_upd;
--> statement-breakpoint
ALTER TABLE order_events DISABLE TRIGGER report_events_upd;
--> statement-breakpoint
UPDATE order_events SET due_at = NULL WHERE action = 'status' AND to_value = 'Completed';
--> statement-breakpoint
ALTER TABLE order_events ENABLE TRIGGER insights_events_upd;
--> statement-breakpoint
ALTER TABLE order_events ENABLE TRIGGER report_events_upd;
--> statement-breakpoint
UPDATE insights_daily t SET completed_due = c.due, completed_on_time = c.on_time
FROM (
  SELECT (created_at AT TIME ZONE 'America/New_York')::date AS day, coalesce(actor_id, 0) AS actor_id,
         count(*) FILTER (WHERE due_at IS NOT NULL)::int AS due,
         count(*) FILTER (WHERE created_at <= due_at)::int AS on_time
  FROM order_events WHERE action = 'status' AND to_value = 'Completed'
  GROUP BY 1, 2
) c
WHERE t.day = c.day AND t.actor_id = c.actor_id;

-- The statement triggers of orders and order_events return at once when the statement's rows cannot
-- change what they keep (decision 444): the Insights events rollup when no move or remark is among the
-- events, the Insights orders rollup and the country report when an update changes none of their keys,
-- and the assignments' first actions when no assignment and no own action is among the events (their
-- insert now in PL/pgSQL, with a plan the function keeps). An assignment, the commonest write of routing and
-- claims, paid for all four on every order.
CREATE OR REPLACE FUNCTION insights_events_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := insights_changes_sql(TG_OP, 'id, order_id, actor_id, action, to_value, created_at, due_at');
  v_days date[];
BEGIN
  -- Only moves and remarks count here: any other event (an assignment, a mail…) returns at once.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE action IN ('status', 'remark')) THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows WHERE action IN ('status', 'remark')) THEN RETURN NULL; END IF;
  ELSIF NOT EXISTS (SELECT 1 FROM new_rows WHERE action IN ('status', 'remark'))
        AND NOT EXISTS (SELECT 1 FROM old_rows WHERE action IN ('status', 'remark')) THEN
    RETURN NULL;
  END IF;
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
END 
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_orders_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- Orders received count by the payment's day: an update that moves no order's created_at changes nothing.
  -- (Nested: old_rows exists only in an update's call.)
  -- The two images compared as ordered lists, not joined: a join of transition tables (no statistics)
  -- may be planned as a nested loop, quadratic in a large update.
  IF TG_OP = 'UPDATE' THEN
    IF (SELECT array_agg(created_at ORDER BY order_id) FROM new_rows)
       IS NOT DISTINCT FROM (SELECT array_agg(created_at ORDER BY order_id) FROM old_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  EXECUTE format($q$
    WITH ch AS (%s)
    INSERT INTO insights_daily AS t (day, actor_id, received)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, 0, sum(s) FROM ch
    GROUP BY 1 HAVING sum(s) <> 0 ORDER BY 1
    ON CONFLICT (day, actor_id) DO UPDATE SET received = t.received + excluded.received
  $q$, insights_changes_sql(TG_OP, 'created_at'));
  RETURN NULL;
END 
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_orders_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_as_of date;
BEGIN
  -- An update that changes none of the rollup's keys and flags (an assignment, a remark's bookkeeping)
  -- writes nothing: return before the lock and the statement.
  -- (Nested: old_rows exists only in an update's call.)
  -- The two images compared as ordered lists, not joined: a join of transition tables (no statistics)
  -- may be planned as a nested loop, quadratic in a large update.
  IF TG_OP = 'UPDATE' THEN
    IF (SELECT array_agg(row(created_at, nationality, processing_mode, process_status, processing_date)::text
                         ORDER BY order_id) FROM new_rows)
       IS NOT DISTINCT FROM
       (SELECT array_agg(row(created_at, nationality, processing_mode, process_status, processing_date)::text
                         ORDER BY order_id) FROM old_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  -- Waits while report_future_refresh recomputes the future counts for a new day: no change lost or doubled.
  LOCK TABLE report_future_state IN ROW SHARE MODE;
  SELECT s.as_of INTO v_as_of FROM report_future_state s WHERE s.id = 1;
  -- Each new row image counts +1 and each old one -1; rows whose key and flags did not change cancel out,
  -- so a plain field edit writes no rollup row. Keys are sorted: concurrent writers lock in one order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_country_daily AS c (day, nationality, orders, priority_orders, future_orders)
    SELECT d, n, sum(s), sum(s * p), sum(s * f) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(nationality, 'Unknown') AS n,
             1 AS s, (processing_mode = 'Priority')::int AS p,
             (process_status = 'New' AND processing_date > v_as_of)::int AS f
      FROM new_rows WHERE process_status <> 'Deleted'
    ) x GROUP BY 1, 2
    HAVING sum(s) <> 0 OR sum(s * p) <> 0 OR sum(s * f) <> 0
    ORDER BY 1, 2
    ON CONFLICT (day, nationality) DO UPDATE SET
      orders = c.orders + excluded.orders,
      priority_orders = c.priority_orders + excluded.priority_orders,
      future_orders = c.future_orders + excluded.future_orders;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_country_daily AS c (day, nationality, orders, priority_orders, future_orders)
    SELECT d, n, sum(s), sum(s * p), sum(s * f) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(nationality, 'Unknown') AS n,
             -1 AS s, (processing_mode = 'Priority')::int AS p,
             (process_status = 'New' AND processing_date > v_as_of)::int AS f
      FROM old_rows WHERE process_status <> 'Deleted'
    ) x GROUP BY 1, 2
    HAVING sum(s) <> 0 OR sum(s * p) <> 0 OR sum(s * f) <> 0
    ORDER BY 1, 2
    ON CONFLICT (day, nationality) DO UPDATE SET
      orders = c.orders + excluded.orders,
      priority_orders = c.priority_orders + excluded.priority_orders,
      future_orders = c.future_orders + excluded.future_orders;
  ELSE
    INSERT INTO report_country_daily AS c (day, nationality, orders, priority_orders, future_orders)
    SELECT d, n, sum(s), sum(s * p), sum(s * f) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(nationality, 'Unknown') AS n,
             1 AS s, (processing_mode = 'Priority')::int AS p,
             (process_status = 'New' AND processing_date > v_as_of)::int AS f
      FROM new_rows WHERE process_status <> 'Deleted'
      UNION ALL
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(nationality, 'Unknown') AS n,
             -1 AS s, (processing_mode = 'Priority')::int AS p,
             (process_status = 'New' AND processing_date > v_as_of)::int AS f
      FROM old_rows WHERE process_status <> 'Deleted'
    ) x GROUP BY 1, 2
    HAVING sum(s) <> 0 OR sum(s * p) <> 0 OR sum(s * f) <> 0
    ORDER BY 1, 2
    ON CONFLICT (day, nationality) DO UPDATE SET
      orders = c.orders + excluded.orders,
      priority_orders = c.priority_orders + excluded.priority_orders,
      future_orders = c.future_orders + excluded.future_orders;
  END IF;
  RETURN NULL;
END 
$fn$;
--> statement-breakpoint
-- The rows of the assignment events among `ids` (each first action searched in order_events): the
-- statement of drizzle/0112, now in PL/pgSQL so that its plan is kept per connection (an SQL function
-- called from a trigger is planned on every call).
CREATE OR REPLACE FUNCTION assignment_first_actions_add(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO assignment_first_actions (assign_event_id, order_id, staff_id, assigned_at, first_action_at)
  SELECT a.id, a.order_id, a.to_value::int, a.created_at,
         (SELECT min(e.created_at) FROM order_events e
          WHERE e.order_id = a.order_id AND e.actor_id = a.to_value::int AND e.created_at >= a.created_at
            AND e.action NOT IN ('assign', 'takeover'))
  FROM order_events a
  WHERE a.id = ANY(ids) AND a.action = 'assign' AND a.to_value ~ '^[0-9]{1,9}$'
  ON CONFLICT (assign_event_id) DO UPDATE SET first_action_at = EXCLUDED.first_action_at;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION assignment_first_actions_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  touched bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Only when there are assignments among the new events.
    IF EXISTS (SELECT 1 FROM new_rows WHERE action = 'assign') THEN
      PERFORM assignment_first_actions_add(array(SELECT id FROM new_rows WHERE action = 'assign'));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE actor_id IS NOT NULL AND action NOT IN ('assign', 'takeover')) THEN
      RETURN NULL;
    END IF;
    UPDATE assignment_first_actions f SET first_action_at = least(f.first_action_at, n.at)
    FROM (SELECT order_id, actor_id, min(created_at) AS at FROM new_rows
          WHERE actor_id IS NOT NULL AND action NOT IN ('assign', 'takeover')
          GROUP BY order_id, actor_id) n
    WHERE f.order_id = n.order_id AND f.staff_id = n.actor_id AND f.assigned_at <= n.at
      AND (f.first_action_at IS NULL OR f.first_action_at > n.at);
    RETURN NULL;
  END IF;
  -- An update or a delete (rare: erasure, a deleted order): the touched orders' rows again.
  IF TG_OP = 'UPDATE' THEN
    touched := array(SELECT order_id FROM old_rows UNION SELECT order_id FROM new_rows);
  ELSE
    touched := array(SELECT DISTINCT order_id FROM old_rows);
  END IF;
  DELETE FROM assignment_first_actions WHERE order_id = ANY(touched);
  PERFORM assignment_first_actions_add(array(
    SELECT id FROM order_events WHERE order_id = ANY(touched) AND action = 'assign'));
  RETURN NULL;
END 
$fn$;

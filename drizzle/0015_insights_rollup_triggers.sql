-- Insights rollups (docs/decisions/120): statement-level triggers keep insights_daily,
-- insights_duration_daily and insights_mail_daily exact in the transaction of each change. Each new row
-- image counts +1 and each old one -1; keys are sorted so concurrent writers lock in one order.
-- Days are calendar days of the service time zone.
CREATE OR REPLACE FUNCTION insights_changes_sql(op text, cols text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE op
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS s FROM old_rows', cols)
    ELSE format('SELECT %s, 1 AS s FROM new_rows UNION ALL SELECT %s, -1 AS s FROM old_rows', cols, cols)
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_orders_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s)
    INSERT INTO insights_daily AS t (day, actor_id, received)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, 0, sum(s) FROM ch
    GROUP BY 1 HAVING sum(s) <> 0 ORDER BY 1
    ON CONFLICT (day, actor_id) DO UPDATE SET received = t.received + excluded.received
  $q$, insights_changes_sql(TG_OP, 'created_at'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_events_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text := insights_changes_sql(TG_OP, 'id, order_id, actor_id, action, to_value, created_at');
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s)
    INSERT INTO insights_daily AS t (day, actor_id, completed, refunded, deleted, chargebacks, status_moves, remarks)
    SELECT d, a, sum(s * c), sum(s * r), sum(s * x), sum(s * b), sum(s * m), sum(s * k) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(actor_id, 0) AS a, s,
             (action = 'status' AND to_value = 'Completed')::int AS c,
             (action = 'status' AND to_value = 'Refunded')::int AS r,
             (action = 'status' AND to_value = 'Deleted')::int AS x,
             (action = 'status' AND to_value = 'ChargeBack')::int AS b,
             (action = 'status')::int AS m,
             (action = 'remark')::int AS k
      FROM ch WHERE action IN ('status', 'remark')
    ) y GROUP BY 1, 2
    HAVING sum(s * c) <> 0 OR sum(s * r) <> 0 OR sum(s * x) <> 0 OR sum(s * b) <> 0 OR sum(s * m) <> 0 OR sum(s * k) <> 0
    ORDER BY 1, 2
    ON CONFLICT (day, actor_id) DO UPDATE SET
      completed = t.completed + excluded.completed,
      refunded = t.refunded + excluded.refunded,
      deleted = t.deleted + excluded.deleted,
      chargebacks = t.chargebacks + excluded.chargebacks,
      status_moves = t.status_moves + excluded.status_moves,
      remarks = t.remarks + excluded.remarks
  $q$, src);
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
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_mail_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH ch AS (%s)
    INSERT INTO insights_mail_daily AS t (day, provider, sent, failed, pending)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, provider,
           sum(s * (status = 'sent')::int), sum(s * (status = 'failed')::int),
           sum(s * (status NOT IN ('sent', 'failed'))::int)
    FROM ch GROUP BY 1, 2
    HAVING sum(s * (status = 'sent')::int) <> 0 OR sum(s * (status = 'failed')::int) <> 0
        OR sum(s * (status NOT IN ('sent', 'failed'))::int) <> 0
    ORDER BY 1, 2
    ON CONFLICT (day, provider) DO UPDATE SET
      sent = t.sent + excluded.sent, failed = t.failed + excluded.failed, pending = t.pending + excluded.pending
  $q$, insights_changes_sql(TG_OP, 'created_at, provider, status'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_truncate_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    UPDATE insights_daily SET received = 0 WHERE received <> 0;
  ELSIF TG_TABLE_NAME = 'order_events' THEN
    UPDATE insights_daily SET completed = 0, refunded = 0, deleted = 0, chargebacks = 0, status_moves = 0, remarks = 0;
    DELETE FROM insights_duration_daily;
  ELSE
    DELETE FROM insights_mail_daily;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO insights_daily (day, actor_id, received)
SELECT (created_at AT TIME ZONE 'America/New_York')::date, 0, count(*) FROM orders GROUP BY 1;
--> statement-breakpoint
INSERT INTO insights_daily AS t (day, actor_id, completed, refunded, deleted, chargebacks, status_moves, remarks)
SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(actor_id, 0),
       count(*) FILTER (WHERE action = 'status' AND to_value = 'Completed'),
       count(*) FILTER (WHERE action = 'status' AND to_value = 'Refunded'),
       count(*) FILTER (WHERE action = 'status' AND to_value = 'Deleted'),
       count(*) FILTER (WHERE action = 'status' AND to_value = 'ChargeBack'),
       count(*) FILTER (WHERE action = 'status'),
       count(*) FILTER (WHERE action = 'remark')
FROM order_events WHERE action IN ('status', 'remark') GROUP BY 1, 2
ON CONFLICT (day, actor_id) DO UPDATE SET
  completed = excluded.completed, refunded = excluded.refunded, deleted = excluded.deleted,
  chargebacks = excluded.chargebacks, status_moves = excluded.status_moves, remarks = excluded.remarks;
--> statement-breakpoint
INSERT INTO insights_duration_daily (day, kind, actor_id, hours, n)
SELECT d, k, a, h, count(*) FROM (
  SELECT (c.created_at AT TIME ZONE 'America/New_York')::date AS d, 1 AS k, 0 AS a,
         floor(extract(epoch FROM (c.created_at - o.created_at)) / 3600)::int AS h
  FROM order_events c JOIN orders o ON o.order_id = c.order_id
  WHERE c.action = 'status' AND c.to_value = 'Completed'
  UNION ALL
  SELECT (c.created_at AT TIME ZONE 'America/New_York')::date, 2, coalesce(c.actor_id, 0),
         floor(extract(epoch FROM (c.created_at - la.created_at)) / 3600)::int
  FROM order_events c CROSS JOIN LATERAL (
    SELECT e.created_at, e.to_value FROM order_events e
    WHERE e.order_id = c.order_id AND e.action = 'assign' AND e.id < c.id
    ORDER BY e.id DESC LIMIT 1
  ) la
  WHERE c.action = 'status' AND c.to_value = 'Completed' AND la.to_value IS NOT NULL
) y GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO insights_mail_daily (day, provider, sent, failed, pending)
SELECT (created_at AT TIME ZONE 'America/New_York')::date, provider,
       count(*) FILTER (WHERE status = 'sent'), count(*) FILTER (WHERE status = 'failed'),
       count(*) FILTER (WHERE status NOT IN ('sent', 'failed'))
FROM mail_log GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER insights_orders_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_orders_sync();
--> statement-breakpoint
CREATE TRIGGER insights_orders_upd AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_orders_sync();
--> statement-breakpoint
CREATE TRIGGER insights_orders_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_orders_sync();
--> statement-breakpoint
CREATE TRIGGER insights_orders_trunc AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION insights_truncate_sync();
--> statement-breakpoint
CREATE TRIGGER insights_events_ins AFTER INSERT ON order_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_events_sync();
--> statement-breakpoint
CREATE TRIGGER insights_events_upd AFTER UPDATE ON order_events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_events_sync();
--> statement-breakpoint
CREATE TRIGGER insights_events_del AFTER DELETE ON order_events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_events_sync();
--> statement-breakpoint
CREATE TRIGGER insights_events_trunc AFTER TRUNCATE ON order_events
  FOR EACH STATEMENT EXECUTE FUNCTION insights_truncate_sync();
--> statement-breakpoint
CREATE TRIGGER insights_mail_ins AFTER INSERT ON mail_log REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_mail_sync();
--> statement-breakpoint
CREATE TRIGGER insights_mail_upd AFTER UPDATE ON mail_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_mail_sync();
--> statement-breakpoint
CREATE TRIGGER insights_mail_del AFTER DELETE ON mail_log REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION insights_mail_sync();
--> statement-breakpoint
CREATE TRIGGER insights_mail_trunc AFTER TRUNCATE ON mail_log
  FOR EACH STATEMENT EXECUTE FUNCTION insights_truncate_sync();
--> statement-breakpoint
-- The audit log is append-only: no statement may delete its rows (docs/decisions/122).
CREATE OR REPLACE FUNCTION audit_log_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_no_delete();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_no_delete();
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS audit_log_actor_created_idx ON audit_log (lower(actor_email), created_at);

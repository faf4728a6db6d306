-- Reports: rollups kept by statement-level triggers (docs/decisions/061-report-rollups.md).
-- Days are calendar days in the service time zone, America/New_York (SERVICE_TIME_ZONE).
CREATE FUNCTION report_orders_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_as_of date;
BEGIN
  -- Waits while report_future_refresh recomputes the future rollup for a new day: no change lost or doubled.
  LOCK TABLE report_future_state IN ROW SHARE MODE;
  SELECT s.as_of INTO v_as_of FROM report_future_state s WHERE s.id = 1;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_country_daily AS c (day, nationality, processing_mode, orders)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'),
           CASE WHEN processing_mode = 'Priority' THEN 'Priority' ELSE 'Standard' END, count(*)
    FROM new_rows WHERE process_status <> 'Deleted' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (day, nationality, processing_mode) DO UPDATE SET orders = c.orders + excluded.orders;
    INSERT INTO report_future_daily AS f (day, nationality, orders)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'), count(*)
    FROM new_rows WHERE process_status = 'New' AND processing_date > v_as_of GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, nationality) DO UPDATE SET orders = f.orders + excluded.orders;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_country_daily AS c (day, nationality, processing_mode, orders)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'),
           CASE WHEN processing_mode = 'Priority' THEN 'Priority' ELSE 'Standard' END, -count(*)
    FROM old_rows WHERE process_status <> 'Deleted' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (day, nationality, processing_mode) DO UPDATE SET orders = c.orders + excluded.orders;
    INSERT INTO report_future_daily AS f (day, nationality, orders)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'), -count(*)
    FROM old_rows WHERE process_status = 'New' AND processing_date > v_as_of GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, nationality) DO UPDATE SET orders = f.orders + excluded.orders;
  ELSE
    -- Rows whose key did not change cancel out: a plain field edit writes no rollup row at all.
    INSERT INTO report_country_daily AS c (day, nationality, processing_mode, orders)
    SELECT d, n, m, sum(delta) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(nationality, 'Unknown') AS n,
             CASE WHEN processing_mode = 'Priority' THEN 'Priority' ELSE 'Standard' END AS m, 1 AS delta
      FROM new_rows WHERE process_status <> 'Deleted'
      UNION ALL
      SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'),
             CASE WHEN processing_mode = 'Priority' THEN 'Priority' ELSE 'Standard' END, -1
      FROM old_rows WHERE process_status <> 'Deleted'
    ) x GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (day, nationality, processing_mode) DO UPDATE SET orders = c.orders + excluded.orders;
    INSERT INTO report_future_daily AS f (day, nationality, orders)
    SELECT d, n, sum(delta) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(nationality, 'Unknown') AS n,
             1 AS delta
      FROM new_rows WHERE process_status = 'New' AND processing_date > v_as_of
      UNION ALL
      SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'), -1
      FROM old_rows WHERE process_status = 'New' AND processing_date > v_as_of
    ) x GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, nationality) DO UPDATE SET orders = f.orders + excluded.orders;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_events_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_processed_daily AS p (day, actor_id, completions)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(actor_id, 0), count(*)
    FROM new_rows WHERE action = 'status' AND to_value = 'Completed' GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, actor_id) DO UPDATE SET completions = p.completions + excluded.completions;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_processed_daily AS p (day, actor_id, completions)
    SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(actor_id, 0), -count(*)
    FROM old_rows WHERE action = 'status' AND to_value = 'Completed' GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, actor_id) DO UPDATE SET completions = p.completions + excluded.completions;
  ELSE
    INSERT INTO report_processed_daily AS p (day, actor_id, completions)
    SELECT d, a, sum(delta) FROM (
      SELECT (created_at AT TIME ZONE 'America/New_York')::date AS d, coalesce(actor_id, 0) AS a, 1 AS delta
      FROM new_rows WHERE action = 'status' AND to_value = 'Completed'
      UNION ALL
      SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(actor_id, 0), -1
      FROM old_rows WHERE action = 'status' AND to_value = 'Completed'
    ) x GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, actor_id) DO UPDATE SET completions = p.completions + excluded.completions;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION report_truncate_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    DELETE FROM report_country_daily;
    DELETE FROM report_future_daily;
  ELSE
    DELETE FROM report_processed_daily;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The future rollup holds the orders that are future as of one day; when the service day turns, the first
-- report recomputes it (one pass over the New orders) under an exclusive lock that the triggers wait for.
CREATE FUNCTION report_future_refresh(d date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE report_future_state IN EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM report_future_state WHERE id = 1 AND as_of >= d) THEN
    RETURN;
  END IF;
  DELETE FROM report_future_daily;
  INSERT INTO report_future_daily (day, nationality, orders)
  SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'), count(*)
  FROM orders WHERE process_status = 'New' AND processing_date > d GROUP BY 1, 2;
  INSERT INTO report_future_state (id, as_of) VALUES (1, d)
  ON CONFLICT (id) DO UPDATE SET as_of = excluded.as_of;
END $$;
--> statement-breakpoint
INSERT INTO report_future_state (id, as_of) VALUES (1, '2000-01-01');
--> statement-breakpoint
SELECT report_future_refresh((now() AT TIME ZONE 'America/New_York')::date);
--> statement-breakpoint
INSERT INTO report_country_daily (day, nationality, processing_mode, orders)
SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'),
       CASE WHEN processing_mode = 'Priority' THEN 'Priority' ELSE 'Standard' END, count(*)
FROM orders WHERE process_status <> 'Deleted' GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO report_processed_daily (day, actor_id, completions)
SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(actor_id, 0), count(*)
FROM order_events WHERE action = 'status' AND to_value = 'Completed' GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER report_orders_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_orders_sync();
--> statement-breakpoint
CREATE TRIGGER report_orders_upd AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_orders_sync();
--> statement-breakpoint
CREATE TRIGGER report_orders_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_orders_sync();
--> statement-breakpoint
CREATE TRIGGER report_orders_trunc AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION report_truncate_sync();
--> statement-breakpoint
CREATE TRIGGER report_events_ins AFTER INSERT ON order_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_events_sync();
--> statement-breakpoint
CREATE TRIGGER report_events_upd AFTER UPDATE ON order_events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_events_sync();
--> statement-breakpoint
CREATE TRIGGER report_events_del AFTER DELETE ON order_events REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION report_events_sync();
--> statement-breakpoint
CREATE TRIGGER report_events_trunc AFTER TRUNCATE ON order_events
  FOR EACH STATEMENT EXECUTE FUNCTION report_truncate_sync();

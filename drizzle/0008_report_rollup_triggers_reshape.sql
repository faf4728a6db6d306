-- Reports: one country rollup row per (service day, nationality) holding orders, priority and future
-- counts, so a year is ~7,000 rows read in one pass (docs/decisions/061-report-rollups.md).
-- Replaces the functions of 0005 (their tables were reshaped by 0006/0007).
CREATE OR REPLACE FUNCTION report_orders_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_as_of date;
BEGIN
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
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_truncate_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    DELETE FROM report_country_daily;
  ELSE
    DELETE FROM report_processed_daily;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- future_orders holds the orders that are future as of one day; when the service day turns, the first
-- report recomputes them (one pass over the New orders) under an exclusive lock that the triggers wait for.
CREATE OR REPLACE FUNCTION report_future_refresh(d date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE report_future_state IN EXCLUSIVE MODE;
  IF EXISTS (SELECT 1 FROM report_future_state WHERE id = 1 AND as_of >= d) THEN
    RETURN;
  END IF;
  UPDATE report_country_daily SET future_orders = 0 WHERE future_orders <> 0;
  INSERT INTO report_country_daily AS c (day, nationality, future_orders)
  SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'), count(*)
  FROM orders WHERE process_status = 'New' AND processing_date > d GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (day, nationality) DO UPDATE SET future_orders = excluded.future_orders;
  UPDATE report_future_state SET as_of = d WHERE id = 1;
END $$;
--> statement-breakpoint
UPDATE report_future_state SET as_of = '2000-01-01' WHERE id = 1;
--> statement-breakpoint
INSERT INTO report_country_daily (day, nationality, orders, priority_orders)
SELECT (created_at AT TIME ZONE 'America/New_York')::date, coalesce(nationality, 'Unknown'), count(*),
       count(*) FILTER (WHERE processing_mode = 'Priority')
FROM orders WHERE process_status <> 'Deleted' GROUP BY 1, 2;
--> statement-breakpoint
SELECT report_future_refresh((now() AT TIME ZONE 'America/New_York')::date);

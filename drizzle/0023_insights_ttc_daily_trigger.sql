-- Per-day payment → Completed figures (count, nearest-rank median and 90th percentile, whole hours), kept
-- from the kind-1 histogram for the days a statement touched (docs/decisions/120): the dashboard reads one
-- row per day instead of sorting a year of histogram rows per request. The days' rows are locked before
-- the histogram changes, so concurrent completions of one day recompute one after the other.
CREATE OR REPLACE FUNCTION insights_ttc_refresh(days date[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO insights_ttc_daily AS t (day, completed, median_hours, p90_hours)
  SELECT d.day, coalesce(s.total, 0), s.median, s.p90
  FROM unnest(days) AS d(day)
  LEFT JOIN (
    SELECT day, total::int AS total,
           min(hours) FILTER (WHERE cum >= (total + 1) / 2) AS median,
           min(hours) FILTER (WHERE cum >= (9 * total + 9) / 10) AS p90
    FROM (SELECT day, hours, sum(n) OVER (PARTITION BY day ORDER BY hours) AS cum,
                 (sum(n) OVER (PARTITION BY day))::bigint AS total
          FROM insights_duration_daily WHERE kind = 1 AND day = ANY(days) AND n <> 0) c
    GROUP BY day, total
  ) s ON s.day = d.day
  ORDER BY d.day
  ON CONFLICT (day) DO UPDATE SET
    completed = excluded.completed, median_hours = excluded.median_hours, p90_hours = excluded.p90_hours
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION insights_events_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text := insights_changes_sql(TG_OP, 'id, order_id, actor_id, action, to_value, created_at');
  v_days date[];
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
    UPDATE insights_daily SET completed = 0, refunded = 0, deleted = 0, chargebacks = 0, status_moves = 0, remarks = 0;
    DELETE FROM insights_duration_daily;
    DELETE FROM insights_ttc_daily;
  ELSE
    DELETE FROM insights_mail_daily;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
SELECT insights_ttc_refresh(array(SELECT DISTINCT day FROM insights_duration_daily WHERE kind = 1 ORDER BY 1));

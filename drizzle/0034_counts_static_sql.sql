-- The counters' trigger in static SQL (docs/decisions/283-claim-under-contention.md): 0033 built its two
-- upserts as text and ran them with EXECUTE, so every firing parsed and planned both again (about 0.3 to
-- 0.9 ms of backend CPU a firing, measured; an order update fires it once, a claim or any change with an
-- event twice). Static statements are planned once per session. Same behaviour: the folder counters' upsert
-- runs first and always (its statement trigger order_folder_counts_cache_notify is the cache's change
-- signal, even when nothing moves), then the nationality counters'; keys sorted within each statement, so
-- concurrent writers lock counter rows in one order; rows whose key did not change cancel out.
CREATE OR REPLACE FUNCTION order_folder_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_folder_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
    SELECT process_status, processing_mode, assigned_to,
           CASE WHEN process_status = 'New' THEN processing_date END, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO order_nationality_counts AS c (nationality, process_status, processing_mode, assigned_to, due_date, n)
    SELECT nationality, process_status, processing_mode, assigned_to,
           CASE WHEN process_status = 'New' THEN processing_date END, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (nationality, process_status, processing_mode, assigned_to, due_date)
      DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_folder_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
    SELECT process_status, processing_mode, assigned_to,
           CASE WHEN process_status = 'New' THEN processing_date END, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO order_nationality_counts AS c (nationality, process_status, processing_mode, assigned_to, due_date, n)
    SELECT nationality, process_status, processing_mode, assigned_to,
           CASE WHEN process_status = 'New' THEN processing_date END, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (nationality, process_status, processing_mode, assigned_to, due_date)
      DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO order_folder_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
    SELECT s, m, a, d, sum(delta) FROM (
      SELECT process_status AS s, processing_mode AS m, assigned_to AS a,
             CASE WHEN process_status = 'New' THEN processing_date END AS d, 1 AS delta FROM new_rows
      UNION ALL
      SELECT process_status, processing_mode, assigned_to,
             CASE WHEN process_status = 'New' THEN processing_date END, -1 FROM old_rows
    ) x GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO order_nationality_counts AS c (nationality, process_status, processing_mode, assigned_to, due_date, n)
    SELECT t, s, m, a, d, sum(delta) FROM (
      SELECT nationality AS t, process_status AS s, processing_mode AS m, assigned_to AS a,
             CASE WHEN process_status = 'New' THEN processing_date END AS d, 1 AS delta FROM new_rows
      UNION ALL
      SELECT nationality, process_status, processing_mode, assigned_to,
             CASE WHEN process_status = 'New' THEN processing_date END, -1 FROM old_rows
    ) x GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (nationality, process_status, processing_mode, assigned_to, due_date)
      DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

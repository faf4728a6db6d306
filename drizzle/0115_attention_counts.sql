-- The folder counters split by the Needs attention flag, as order_nationality_counts splits them by
-- nationality: the same keys, counting only the flagged orders. A folder's list filtered to Needs
-- attention (and the sidebar's whole-system count) sums a few rows here instead of counting the flagged
-- orders, which grows with the table. Kept by the same statement trigger as the other two counter tables,
-- in the same order (folder counters, nationality counters, then these), keys sorted; a statement that
-- touches no flagged order, before or after, skips this table's upsert.
CREATE TABLE "order_attention_counts" (
	"process_status" text NOT NULL,
	"processing_mode" text NOT NULL,
	"assigned_to" integer,
	"due_date" date,
	"n" bigint NOT NULL,
	CONSTRAINT "order_attention_counts_key" UNIQUE NULLS NOT DISTINCT("process_status","processing_mode","assigned_to","due_date")
);
--> statement-breakpoint
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
    IF EXISTS (SELECT 1 FROM new_rows WHERE needs_attention) THEN
      INSERT INTO order_attention_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
      SELECT process_status, processing_mode, assigned_to,
             CASE WHEN process_status = 'New' THEN processing_date END, count(*)
      FROM new_rows WHERE needs_attention GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
    END IF;
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
    IF EXISTS (SELECT 1 FROM old_rows WHERE needs_attention) THEN
      INSERT INTO order_attention_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
      SELECT process_status, processing_mode, assigned_to,
             CASE WHEN process_status = 'New' THEN processing_date END, -count(*)
      FROM old_rows WHERE needs_attention GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
    END IF;
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
    IF EXISTS (SELECT 1 FROM new_rows WHERE needs_attention) OR EXISTS (SELECT 1 FROM old_rows WHERE needs_attention) THEN
      INSERT INTO order_attention_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
      SELECT s, m, a, d, sum(delta) FROM (
        SELECT process_status AS s, processing_mode AS m, assigned_to AS a,
               CASE WHEN process_status = 'New' THEN processing_date END AS d, 1 AS delta
        FROM new_rows WHERE needs_attention
        UNION ALL
        SELECT process_status, processing_mode, assigned_to,
               CASE WHEN process_status = 'New' THEN processing_date END, -1
        FROM old_rows WHERE needs_attention
      ) x GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_folder_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_folder_counts;
  DELETE FROM order_nationality_counts;
  DELETE FROM order_attention_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO order_attention_counts (process_status, processing_mode, assigned_to, due_date, n)
SELECT process_status, processing_mode, assigned_to,
       CASE WHEN process_status = 'New' THEN processing_date END, count(*)
FROM orders WHERE needs_attention GROUP BY 1, 2, 3, 4;

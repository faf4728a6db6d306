-- Order queues: exact folder counters kept by statement-level triggers, list and search indexes.
-- See docs/decisions/020-folder-counters.md.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE FUNCTION order_folder_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One upsert per statement, keys sorted so concurrent writers lock counter rows in the same order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_folder_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
    SELECT process_status, processing_mode, assigned_to,
           CASE WHEN process_status = 'New' THEN processing_date END, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_folder_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
    SELECT process_status, processing_mode, assigned_to,
           CASE WHEN process_status = 'New' THEN processing_date END, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    -- Rows whose key did not change cancel out, so a plain field edit writes no counter at all.
    INSERT INTO order_folder_counts AS c (process_status, processing_mode, assigned_to, due_date, n)
    SELECT s, m, a, d, sum(delta) FROM (
      SELECT process_status AS s, processing_mode AS m, assigned_to AS a,
             CASE WHEN process_status = 'New' THEN processing_date END AS d, 1 AS delta FROM new_rows
      UNION ALL
      SELECT process_status, processing_mode, assigned_to,
             CASE WHEN process_status = 'New' THEN processing_date END, -1 FROM old_rows
    ) x GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (process_status, processing_mode, assigned_to, due_date) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION order_folder_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_folder_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_counts_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_folder_counts_sync();
--> statement-breakpoint
CREATE TRIGGER orders_counts_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_folder_counts_sync();
--> statement-breakpoint
CREATE TRIGGER orders_counts_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_folder_counts_sync();
--> statement-breakpoint
CREATE TRIGGER orders_counts_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_folder_counts_reset();
--> statement-breakpoint
INSERT INTO order_folder_counts (process_status, processing_mode, assigned_to, due_date, n)
SELECT process_status, processing_mode, assigned_to,
       CASE WHEN process_status = 'New' THEN processing_date END, count(*)
FROM orders GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- Lists: newest first per folder; partial indexes that hold exactly one folder each, with the columns
-- the folder filters on included, so a deep page is an index-only scan.
CREATE INDEX orders_q_new_idx ON orders (created_at DESC, order_id DESC) INCLUDE (processing_date)
  WHERE process_status = 'New' AND assigned_to IS NULL AND processing_mode <> 'Priority';
--> statement-breakpoint
CREATE INDEX orders_q_priority_idx ON orders (created_at DESC, order_id DESC) INCLUDE (processing_date)
  WHERE process_status = 'New' AND assigned_to IS NULL AND processing_mode = 'Priority';
--> statement-breakpoint
CREATE INDEX orders_q_pending_idx ON orders (created_at DESC, order_id DESC)
  WHERE process_status = 'New' AND assigned_to IS NOT NULL;
--> statement-breakpoint
CREATE INDEX orders_q_status_new_idx ON orders (created_at DESC, order_id DESC) INCLUDE (processing_date)
  WHERE process_status = 'New';
--> statement-breakpoint
CREATE INDEX orders_q_future_idx ON orders (processing_date) INCLUDE (created_at)
  WHERE process_status = 'New';
--> statement-breakpoint
CREATE INDEX orders_q_my_idx ON orders (assigned_to, created_at DESC, order_id DESC)
  WHERE process_status NOT IN ('Completed', 'Deleted', 'Refunded');
--> statement-breakpoint
CREATE INDEX orders_q_all_idx ON orders (created_at DESC, order_id DESC) WHERE process_status <> 'Deleted';
--> statement-breakpoint
-- Search: one trigram index over the searchable text (names, e-mail, phone) for substring matches.
CREATE INDEX orders_search_trgm_idx ON orders USING gin (
  lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(phone_code, '') || coalesce(telephone_number, ''))
  gin_trgm_ops
);

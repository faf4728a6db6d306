-- Per member, how many open orders they hold (their My Orders count; the load routing and the capacity
-- check compare with their capacity) and when an order was last assigned to them (routing's tie-break),
-- kept by statement triggers on orders and order_events, as the folder counters are (decision 445).
-- Counting the held orders in orders, or summing the folder counters (a row per member, status, mode and
-- due day), visits every held order or nearly, and the last assignment was one index probe per member:
-- for the 50 members of a routing pass that was most of the pass. An update that changes no order's
-- holder and no order's open or closed state returns at once (an ordered-array comparison; the
-- transition tables are never joined).
CREATE TABLE IF NOT EXISTS "order_holder_counts" (
  "assigned_to" integer PRIMARY KEY,
  "n" bigint NOT NULL,
  "last_assigned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_holder_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_holder_counts AS c (assigned_to, n)
    SELECT assigned_to, count(*) FROM new_rows
    WHERE assigned_to IS NOT NULL AND process_status NOT IN ('Completed', 'Refunded', 'Deleted')
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (assigned_to) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_holder_counts AS c (assigned_to, n)
    SELECT assigned_to, -count(*) FROM old_rows
    WHERE assigned_to IS NOT NULL AND process_status NOT IN ('Completed', 'Refunded', 'Deleted')
    GROUP BY 1 ORDER BY 1
    ON CONFLICT (assigned_to) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    IF (SELECT array_agg(row(assigned_to, process_status IN ('Completed', 'Refunded', 'Deleted'))::text
                         ORDER BY order_id) FROM new_rows)
       IS NOT DISTINCT FROM
       (SELECT array_agg(row(assigned_to, process_status IN ('Completed', 'Refunded', 'Deleted'))::text
                         ORDER BY order_id) FROM old_rows) THEN
      RETURN NULL;
    END IF;
    INSERT INTO order_holder_counts AS c (assigned_to, n)
    SELECT a, sum(delta) FROM (
      SELECT assigned_to AS a, 1 AS delta FROM new_rows
      WHERE assigned_to IS NOT NULL AND process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      UNION ALL
      SELECT assigned_to, -1 FROM old_rows
      WHERE assigned_to IS NOT NULL AND process_status NOT IN ('Completed', 'Refunded', 'Deleted')
    ) x GROUP BY 1 HAVING sum(delta) <> 0 ORDER BY 1
    ON CONFLICT (assigned_to) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_holder_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_holder_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER orders_holder_counts_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_holder_counts_sync();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER orders_holder_counts_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_holder_counts_sync();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER orders_holder_counts_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT WHEN (current_setting('edcard.bookkeeping', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION order_holder_counts_sync();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER orders_holder_counts_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_holder_counts_reset();
--> statement-breakpoint
INSERT INTO order_holder_counts (assigned_to, n)
SELECT assigned_to, count(*) FROM orders
WHERE assigned_to IS NOT NULL AND process_status NOT IN ('Completed', 'Refunded', 'Deleted')
GROUP BY 1
ON CONFLICT (assigned_to) DO UPDATE SET n = excluded.n;
--> statement-breakpoint
-- The last assignment to each member: an assign event names them in to_value (an unassignment has none).
CREATE OR REPLACE FUNCTION order_holder_assigned_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE action = 'assign' AND to_value IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO order_holder_counts AS c (assigned_to, n, last_assigned_at)
  SELECT to_value::int, 0, max(created_at) FROM new_rows
  WHERE action = 'assign' AND to_value ~ '^[0-9]{1,9}$'
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (assigned_to) DO UPDATE
    SET last_assigned_at = greatest(c.last_assigned_at, excluded.last_assigned_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER order_events_holder_assigned AFTER INSERT ON order_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_holder_assigned_sync();
--> statement-breakpoint
INSERT INTO order_holder_counts AS c (assigned_to, n, last_assigned_at)
SELECT to_value::int, 0, max(created_at) FROM order_events
WHERE action = 'assign' AND to_value ~ '^[0-9]{1,9}$'
GROUP BY 1
ON CONFLICT (assigned_to) DO UPDATE SET last_assigned_at = excluded.last_assigned_at;

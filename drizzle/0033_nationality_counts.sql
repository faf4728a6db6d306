CREATE TABLE "order_nationality_counts" (
	"nationality" text,
	"process_status" text NOT NULL,
	"processing_mode" text NOT NULL,
	"assigned_to" integer,
	"due_date" date,
	"n" bigint NOT NULL,
	CONSTRAINT "order_nationality_counts_key" UNIQUE NULLS NOT DISTINCT("nationality","process_status","processing_mode","assigned_to","due_date")
);
--> statement-breakpoint
-- One trigger function keeps both counter tables: the changed rows are read once per table, each table
-- is upserted in its own statement (folder counters first, always in that order, so concurrent writers
-- lock counter rows in one order), keys sorted within a statement. The statements are built once per
-- table key list; the changed rows come from the transition tables of the firing statement.
CREATE OR REPLACE FUNCTION order_folder_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'nationality, process_status, processing_mode, assigned_to, '
    || 'CASE WHEN process_status = ''New'' THEN processing_date END AS due_date';
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS delta FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS delta FROM old_rows', cols)
    -- Rows whose key did not change cancel out, so a plain field edit moves no counter at all.
    ELSE format('SELECT %s, 1 AS delta FROM new_rows UNION ALL SELECT %s, -1 FROM old_rows', cols, cols)
  END;
  target record;
BEGIN
  FOR target IN
    SELECT * FROM (VALUES
      (1, 'order_folder_counts', 'process_status, processing_mode, assigned_to, due_date'),
      (2, 'order_nationality_counts', 'nationality, process_status, processing_mode, assigned_to, due_date')
    ) t(i, tbl, keys) ORDER BY i
  LOOP
    -- Runs even when nothing moves: the folder counters' statement trigger is the cache's change signal.
    EXECUTE format(
      'INSERT INTO %I AS c (%s, n) SELECT %s, sum(delta) FROM (%s) x GROUP BY %s HAVING sum(delta) <> 0 '
        || 'ORDER BY %s ON CONFLICT (%s) DO UPDATE SET n = c.n + excluded.n',
      target.tbl, target.keys, target.keys, changed, target.keys, target.keys, target.keys);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_folder_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_folder_counts;
  DELETE FROM order_nationality_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO order_nationality_counts (nationality, process_status, processing_mode, assigned_to, due_date, n)
SELECT nationality, process_status, processing_mode, assigned_to,
       CASE WHEN process_status = 'New' THEN processing_date END, count(*)
FROM orders GROUP BY 1, 2, 3, 4, 5;

-- One pass of the order triggers per change. A writer that updates the order in the change raises its
-- version in that same update (version + 1, version_xact = the transaction's id), so the publish trigger
-- on order_events has nothing left to write: it only notifies. Orders whose change wrote no update of
-- their own (a remark, a mail sent) are still raised here, one per event as before, and that version-only
-- update skips the counters', reports' and insights' triggers: it moves none of their figures.
ALTER TABLE "orders" ADD COLUMN "version_xact" bigint;--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_events_publish() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  xact bigint := txid_current();
  n_notified int;
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_rows e JOIN orders o ON o.order_id = e.order_id
    WHERE o.version_xact IS DISTINCT FROM xact
  ) THEN
    PERFORM set_config('edcard.bookkeeping', 'on', true);
    UPDATE orders o SET version = o.version + c.n
    FROM (SELECT order_id, count(*)::int AS n FROM new_rows GROUP BY order_id) c
    WHERE o.order_id = c.order_id AND o.version_xact IS DISTINCT FROM xact;
    PERFORM set_config('edcard.bookkeeping', '', true);
  END IF;
  WITH last_event AS (
    SELECT DISTINCT ON (order_id) order_id, actor_id, action FROM new_rows ORDER BY order_id, id DESC
  )
  SELECT count(pg_notify('edcard_order', json_build_object(
      'orderId', b.order_id,
      'processStatus', b.process_status,
      'assignTo', coalesce(holder.name, ''),
      'assignedToId', b.assigned_to,
      'version', b.version,
      'by', coalesce(actor.name, ''),
      'byId', e.actor_id,
      'action', e.action)::text))
  INTO STRICT n_notified
  FROM last_event e
  JOIN orders b ON b.order_id = e.order_id
  LEFT JOIN staff_users holder ON holder.id = b.assigned_to
  LEFT JOIN staff_users actor ON actor.id = e.actor_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER orders_counts_update ON orders;--> statement-breakpoint
CREATE TRIGGER orders_counts_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT WHEN (current_setting('edcard.bookkeeping', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION order_folder_counts_sync();--> statement-breakpoint
DROP TRIGGER report_orders_upd ON orders;--> statement-breakpoint
CREATE TRIGGER report_orders_upd AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT WHEN (current_setting('edcard.bookkeeping', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION report_orders_sync();--> statement-breakpoint
DROP TRIGGER insights_orders_upd ON orders;--> statement-breakpoint
CREATE TRIGGER insights_orders_upd AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT WHEN (current_setting('edcard.bookkeeping', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION insights_orders_sync();

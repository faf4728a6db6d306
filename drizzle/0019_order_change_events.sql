-- Every change of an order writes an order_events row in its transaction. This trigger raises the order's
-- version and publishes the change on the channel 'edcard_order' with pg_notify, which PostgreSQL delivers
-- only when that transaction commits, to every listening server instance (docs/decisions/081).
CREATE OR REPLACE FUNCTION order_events_publish() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n_notified int;
BEGIN
  WITH bumped AS (
    UPDATE orders o SET version = o.version + c.n
    FROM (SELECT order_id, count(*)::int AS n FROM new_rows GROUP BY order_id) c
    WHERE o.order_id = c.order_id
    RETURNING o.order_id, o.process_status, o.assigned_to, o.version
  ),
  last_event AS (
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
  FROM bumped b
  JOIN last_event e ON e.order_id = b.order_id
  LEFT JOIN staff_users holder ON holder.id = b.assigned_to
  LEFT JOIN staff_users actor ON actor.id = e.actor_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_events_publish AFTER INSERT ON order_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_events_publish();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_presence_publish() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('edcard_presence', coalesce(NEW.order_id, OLD.order_id)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_presence_publish AFTER INSERT OR UPDATE OF editing OR DELETE ON order_presence
  FOR EACH ROW EXECUTE FUNCTION order_presence_publish();

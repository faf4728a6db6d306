-- A routing pass's assignment recorded its routing row (drizzle/0112) through a second PL/pgSQL call,
-- which read the new assign events again from order_events by id. The insert branch now reads them from
-- the statement's own new rows, in the trigger function itself: the same rows, one call and one lookup
-- fewer per assigning statement (a routing pass, a claim, a manual assignment). Updates and deletes of
-- events still recompute the touched orders' rows through assignment_first_actions_add.
CREATE OR REPLACE FUNCTION assignment_first_actions_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  touched bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Only when there are assignments among the new events (their first action searched in order_events).
    IF EXISTS (SELECT 1 FROM new_rows WHERE action = 'assign') THEN
      INSERT INTO assignment_first_actions (assign_event_id, order_id, staff_id, assigned_at, first_action_at)
      SELECT a.id, a.order_id, a.to_value::int, a.created_at,
             (SELECT min(e.created_at) FROM order_events e
              WHERE e.order_id = a.order_id AND e.actor_id = a.to_value::int AND e.created_at >= a.created_at
                AND e.action NOT IN ('assign', 'takeover'))
      FROM new_rows a
      WHERE a.action = 'assign' AND a.to_value ~ '^[0-9]{1,9}$'
      ON CONFLICT (assign_event_id) DO UPDATE SET first_action_at = EXCLUDED.first_action_at;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE actor_id IS NOT NULL AND action NOT IN ('assign', 'takeover')) THEN
      RETURN NULL;
    END IF;
    UPDATE assignment_first_actions f SET first_action_at = least(f.first_action_at, n.at)
    FROM (SELECT order_id, actor_id, min(created_at) AS at FROM new_rows
          WHERE actor_id IS NOT NULL AND action NOT IN ('assign', 'takeover')
          GROUP BY order_id, actor_id) n
    WHERE f.order_id = n.order_id AND f.staff_id = n.actor_id AND f.assigned_at <= n.at
      AND (f.first_action_at IS NULL OR f.first_action_at > n.at);
    RETURN NULL;
  END IF;
  -- An update or a delete (rare: erasure, a deleted order): the touched orders' rows again.
  IF TG_OP = 'UPDATE' THEN
    touched := array(SELECT order_id FROM old_rows UNION SELECT order_id FROM new_rows);
  ELSE
    touched := array(SELECT DISTINCT order_id FROM old_rows);
  END IF;
  DELETE FROM assignment_first_actions WHERE order_id = ANY(touched);
  PERFORM assignment_first_actions_add(array(
    SELECT id FROM order_events WHERE order_id = ANY(touched) AND action = 'assign'));
  RETURN NULL;
END
$fn$;

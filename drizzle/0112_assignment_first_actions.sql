-- Insights' routing figures (the assignments to each member in a period and the median minutes to their
-- first own action) read one row per assignment instead of searching each assignment's later events
-- (decision 438): a year at 1,000,000 orders held about 200,000 assignments and the search took 6.7 s.
-- Kept by a statement trigger on order_events, like the other Insights tables: an assignment to a member
-- adds its row (with the first action already recorded, when one is), and a member's own action (not an
-- assignment or a take-over) on the order fills the first action of the assignments to them it follows.
-- An update or a delete of events (erasure, a deleted order) computes the rows of their orders again.
CREATE TABLE "assignment_first_actions" (
  "assign_event_id" bigint PRIMARY KEY,
  "order_id" bigint NOT NULL,
  "staff_id" integer NOT NULL,
  "assigned_at" timestamp with time zone NOT NULL,
  "first_action_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "assignment_first_actions_period_idx"
  ON "assignment_first_actions" ("assigned_at") INCLUDE ("staff_id", "first_action_at");
--> statement-breakpoint
CREATE INDEX "assignment_first_actions_order_idx" ON "assignment_first_actions" ("order_id", "staff_id");
--> statement-breakpoint
-- The rows of the assignment events among `ids` (each first action searched in order_events).
CREATE OR REPLACE FUNCTION assignment_first_actions_add(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO assignment_first_actions (assign_event_id, order_id, staff_id, assigned_at, first_action_at)
  SELECT a.id, a.order_id, a.to_value::int, a.created_at,
         (SELECT min(e.created_at) FROM order_events e
          WHERE e.order_id = a.order_id AND e.actor_id = a.to_value::int AND e.created_at >= a.created_at
            AND e.action NOT IN ('assign', 'takeover'))
  FROM order_events a
  WHERE a.id = ANY(ids) AND a.action = 'assign' AND a.to_value ~ '^[0-9]{1,9}$'
  ON CONFLICT (assign_event_id) DO UPDATE SET first_action_at = EXCLUDED.first_action_at
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION assignment_first_actions_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM assignment_first_actions_add(array(SELECT id FROM new_rows WHERE action = 'assign'));
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
END $$;
--> statement-breakpoint
CREATE TRIGGER assignment_first_actions_ins AFTER INSERT ON order_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION assignment_first_actions_sync();
--> statement-breakpoint
CREATE TRIGGER assignment_first_actions_upd AFTER UPDATE ON order_events
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION assignment_first_actions_sync();
--> statement-breakpoint
CREATE TRIGGER assignment_first_actions_del AFTER DELETE ON order_events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION assignment_first_actions_sync();
--> statement-breakpoint
-- The assignments recorded so far.
INSERT INTO assignment_first_actions (assign_event_id, order_id, staff_id, assigned_at, first_action_at)
SELECT a.id, a.order_id, a.to_value::int, a.created_at,
       (SELECT min(e.created_at) FROM order_events e
        WHERE e.order_id = a.order_id AND e.actor_id = a.to_value::int AND e.created_at >= a.created_at
          AND e.action NOT IN ('assign', 'takeover'))
FROM order_events a
WHERE a.action = 'assign' AND a.to_value ~ '^[0-9]{1,9}$';

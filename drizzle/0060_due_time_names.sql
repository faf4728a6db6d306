-- One name per idea (docs/decisions/343): the due-time policy's stored names say "due time", not "SLA".
-- The settings row 'sla' becomes 'dueTimePolicy', its audit entries 'due-time-policy.update' on target
-- 'settings:dueTimePolicy', and the SQL functions sla_due_at and sla_policy_changed become
-- policy_due_at and due_time_policy_changed (renamed in place, so the trigger on app_settings keeps its
-- function; the functions that call them by name are replaced to use the new names and key).
UPDATE app_settings SET key = 'dueTimePolicy' WHERE key = 'sla';
--> statement-breakpoint
UPDATE audit_log SET action = 'due-time-policy.update' WHERE action = 'sla.update';
--> statement-breakpoint
UPDATE audit_log SET target = 'settings:dueTimePolicy' WHERE target = 'settings:sla';
--> statement-breakpoint
ALTER FUNCTION sla_due_at(text, text, timestamptz, date, date) RENAME TO policy_due_at;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION policy_due_at(status text, mode text, created timestamptz, processing date, arrival date)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN status IN ('Completed', 'Refunded', 'Deleted') THEN NULL ELSE (
    SELECT least(
      greatest(created, processing::timestamp AT TIME ZONE 'America/New_York')
        + make_interval(hours => (p->>'fromPaymentHours')::int),
      (arrival::timestamp AT TIME ZONE 'America/New_York')
        - make_interval(hours => (p->>'beforeArrivalHours')::int))
    FROM (SELECT value->'modes'->mode AS p FROM app_settings WHERE key = 'dueTimePolicy') s
    WHERE p IS NOT NULL AND jsonb_typeof(p) = 'object')
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_due_at(status text, mode text, created timestamptz, processing date, arrival date,
                                        paused_at timestamptz, paused_seconds integer)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN paused_at IS NOT NULL THEN NULL
              ELSE policy_due_at(status, mode, created, processing, arrival) + make_interval(secs => paused_seconds) END
$$;
--> statement-breakpoint
ALTER FUNCTION sla_policy_changed() RENAME TO due_time_policy_changed;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION due_time_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.key = 'dueTimePolicy' AND (TG_OP = 'INSERT' OR OLD.value->'modes' IS DISTINCT FROM NEW.value->'modes') THEN
    UPDATE orders SET due_at = NULL
    WHERE process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      AND due_at IS DISTINCT FROM order_due_at(process_status, processing_mode, created_at, processing_date,
                                               arrival_date, due_paused_at, due_paused_seconds);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
ALTER TRIGGER app_settings_sla ON app_settings RENAME TO app_settings_due_time_policy;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_events_due_at_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = 'status' AND NEW.to_value = 'Completed' THEN
    NEW.due_at := (
      SELECT policy_due_at(coalesce(NEW.from_value, 'New'), o.processing_mode, o.created_at, o.processing_date, o.arrival_date)
        + make_interval(secs => o.due_paused_seconds + CASE WHEN o.due_paused_at IS NULL THEN 0
                                 ELSE greatest(0, floor(extract(epoch FROM (NEW.created_at - o.due_paused_at))))::integer END)
      FROM orders o WHERE o.order_id = NEW.order_id);
  ELSE
    NEW.due_at := NULL;
  END IF;
  RETURN NEW;
END $$;

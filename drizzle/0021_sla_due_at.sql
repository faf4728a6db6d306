-- Due times of open orders (docs/decisions/150-due-times.md). The policy is the app_settings row 'sla'
-- ({"modes": {"Standard": {"fromPaymentHours", "beforeArrivalHours"}, ...}, "atRiskMarginHours"}).
-- An order is due at the earlier of: payment (or the start of its processing day, when later) plus
-- fromPaymentHours, and the start of its arrival day minus beforeArrivalHours, both days in service
-- time (America/New_York). Completed, Refunded and Deleted orders, and modes without a policy, have none.
CREATE FUNCTION sla_due_at(status text, mode text, created timestamptz, processing date, arrival date)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN status IN ('Completed', 'Refunded', 'Deleted') THEN NULL ELSE (
    SELECT least(
      greatest(created, processing::timestamp AT TIME ZONE 'America/New_York')
        + make_interval(hours => (p->>'fromPaymentHours')::int),
      (arrival::timestamp AT TIME ZONE 'America/New_York')
        - make_interval(hours => (p->>'beforeArrivalHours')::int))
    FROM (SELECT value->'modes'->mode AS p FROM app_settings WHERE key = 'sla') s
    WHERE p IS NOT NULL AND jsonb_typeof(p) = 'object')
  END
$$;
--> statement-breakpoint
-- due_at is never written by hand: any write of it, or of a column it depends on, recomputes it.
CREATE FUNCTION orders_due_at_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.due_at := sla_due_at(NEW.process_status, NEW.processing_mode, NEW.created_at, NEW.processing_date, NEW.arrival_date);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_due_at BEFORE INSERT OR UPDATE OF process_status, processing_mode, created_at, processing_date, arrival_date, due_at
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_due_at_set();
--> statement-breakpoint
-- A change of the policy's limits gives every open order its new due time in the same transaction
-- (only rows whose due time really changes are written).
CREATE FUNCTION sla_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.key = 'sla' AND (TG_OP = 'INSERT' OR OLD.value->'modes' IS DISTINCT FROM NEW.value->'modes') THEN
    UPDATE orders SET due_at = NULL
    WHERE process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      AND due_at IS DISTINCT FROM sla_due_at(process_status, processing_mode, created_at, processing_date, arrival_date);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER app_settings_sla AFTER INSERT OR UPDATE ON app_settings
  FOR EACH ROW EXECUTE FUNCTION sla_policy_changed();
--> statement-breakpoint
-- The default policy (src/shared/contracts/due-time.ts DEFAULT_DUE_TIME_POLICY); inserting it fills due_at.
INSERT INTO app_settings (key, value) VALUES ('sla',
  '{"modes": {"Standard": {"fromPaymentHours": 72, "beforeArrivalHours": 24}, "Priority": {"fromPaymentHours": 24, "beforeArrivalHours": 24}}, "atRiskMarginHours": 12}')
ON CONFLICT (key) DO NOTHING;

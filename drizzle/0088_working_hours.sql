-- Working hours (docs/product.md, "Working hours"): the calendar is the app_settings row 'workingHours'
-- ({ week: { mon: [["09:00","17:00"]], …, sun: [] }, holidays: ["2026-12-25"] }, service time zone); without
-- the row the week is Monday to Friday 09:00–17:00 with no holidays. working_add counts minutes forward in
-- working time only, working_sub backward (the idle release); stretches are read as local times of
-- America/New_York each day, so a DST change never moves them.
CREATE OR REPLACE FUNCTION working_calendar() RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT value FROM app_settings WHERE key = 'workingHours'),
    '{"week":{"mon":[["09:00","17:00"]],"tue":[["09:00","17:00"]],"wed":[["09:00","17:00"]],"thu":[["09:00","17:00"]],"fri":[["09:00","17:00"]],"sat":[],"sun":[]},"holidays":[]}'::jsonb)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION working_add(start timestamptz, minutes integer) RETURNS timestamptz
LANGUAGE plpgsql STABLE AS $$
DECLARE
  cal jsonb := working_calendar();
  keys text[] := ARRAY['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  remaining double precision := greatest(minutes, 0) * 60;
  d date;
  stretch jsonb;
  s_start timestamptz;
  s_end timestamptz;
  eff timestamptz;
  avail double precision;
BEGIN
  IF start IS NULL OR minutes IS NULL THEN RETURN NULL; END IF;
  d := (start AT TIME ZONE 'America/New_York')::date;
  FOR i IN 0..800 LOOP
    IF NOT coalesce(cal->'holidays' ? d::text, false) THEN
      FOR stretch IN
        SELECT x FROM jsonb_array_elements(coalesce(cal->'week'->keys[extract(isodow FROM d)::int], '[]'::jsonb)) x
        ORDER BY x->>0
      LOOP
        s_start := (d + (stretch->>0)::time) AT TIME ZONE 'America/New_York';
        s_end := (d + (stretch->>1)::time) AT TIME ZONE 'America/New_York';
        eff := greatest(start, s_start);
        IF eff < s_end THEN
          avail := extract(epoch FROM s_end - eff);
          IF remaining <= avail THEN RETURN eff + make_interval(secs => remaining); END IF;
          remaining := remaining - avail;
        END IF;
      END LOOP;
    END IF;
    d := d + 1;
  END LOOP;
  -- A calendar without any working hours: calendar time.
  RETURN start + make_interval(mins => minutes);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION working_sub(finish timestamptz, minutes integer) RETURNS timestamptz
LANGUAGE plpgsql STABLE AS $$
DECLARE
  cal jsonb := working_calendar();
  keys text[] := ARRAY['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  remaining double precision := greatest(minutes, 0) * 60;
  d date;
  stretch jsonb;
  s_start timestamptz;
  s_end timestamptz;
  eff timestamptz;
  avail double precision;
BEGIN
  IF finish IS NULL OR minutes IS NULL THEN RETURN NULL; END IF;
  d := (finish AT TIME ZONE 'America/New_York')::date;
  FOR i IN 0..800 LOOP
    IF NOT coalesce(cal->'holidays' ? d::text, false) THEN
      FOR stretch IN
        SELECT x FROM jsonb_array_elements(coalesce(cal->'week'->keys[extract(isodow FROM d)::int], '[]'::jsonb)) x
        ORDER BY x->>0 DESC
      LOOP
        s_start := (d + (stretch->>0)::time) AT TIME ZONE 'America/New_York';
        s_end := (d + (stretch->>1)::time) AT TIME ZONE 'America/New_York';
        eff := least(finish, s_end);
        IF eff > s_start THEN
          avail := extract(epoch FROM eff - s_start);
          IF remaining <= avail THEN RETURN eff - make_interval(secs => remaining); END IF;
          remaining := remaining - avail;
        END IF;
      END LOOP;
    END IF;
    d := d - 1;
  END LOOP;
  RETURN finish - make_interval(mins => minutes);
END $$;
--> statement-breakpoint
-- A rule of the due-time policy with "clock": "working" counts its hours from payment in working time.
CREATE OR REPLACE FUNCTION policy_due_at(status text, mode text, created timestamptz, processing date, arrival date)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN status IN ('Completed', 'Refunded', 'Deleted') THEN NULL ELSE (
    SELECT least(
      CASE WHEN p->>'clock' = 'working'
        THEN working_add(greatest(created, processing::timestamp AT TIME ZONE 'America/New_York'),
                         (p->>'fromPaymentHours')::int * 60)
        ELSE greatest(created, processing::timestamp AT TIME ZONE 'America/New_York')
          + make_interval(hours => (p->>'fromPaymentHours')::int) END,
      (arrival::timestamp AT TIME ZONE 'America/New_York')
        - make_interval(hours => (p->>'beforeArrivalHours')::int))
    FROM (SELECT value->'modes'->mode AS p FROM app_settings WHERE key = 'dueTimePolicy') s
    WHERE p IS NOT NULL AND jsonb_typeof(p) = 'object')
  END
$$;
--> statement-breakpoint
-- The open orders' due times follow a change of the policy's rules or of the working hours.
CREATE OR REPLACE FUNCTION due_time_policy_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.key = 'dueTimePolicy' AND (TG_OP = 'INSERT' OR OLD.value->'modes' IS DISTINCT FROM NEW.value->'modes'))
     OR (NEW.key = 'workingHours' AND (TG_OP = 'INSERT' OR OLD.value IS DISTINCT FROM NEW.value)) THEN
    UPDATE orders SET due_at = NULL
    WHERE process_status NOT IN ('Completed', 'Refunded', 'Deleted')
      AND due_at IS DISTINCT FROM order_due_at(process_status, processing_mode, created_at, processing_date,
                                               arrival_date, due_paused_at, due_paused_seconds);
  END IF;
  RETURN NULL;
END $$;

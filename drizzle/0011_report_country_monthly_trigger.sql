-- Reports: month totals beside the day rows, so a year reads 12 month rows per nationality plus the days of
-- the partial months at its ends (docs/decisions/061-report-rollups.md). Kept from report_country_daily by
-- a row trigger: every change of a day row adds the same difference to its month row.
CREATE FUNCTION report_country_monthly_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_day date;
  v_nat text;
  d_orders integer;
  d_priority integer;
  d_future integer;
BEGIN
  IF TG_OP = 'DELETE' THEN
    v_day := OLD.day; v_nat := OLD.nationality;
    d_orders := -OLD.orders; d_priority := -OLD.priority_orders; d_future := -OLD.future_orders;
  ELSIF TG_OP = 'INSERT' THEN
    v_day := NEW.day; v_nat := NEW.nationality;
    d_orders := NEW.orders; d_priority := NEW.priority_orders; d_future := NEW.future_orders;
  ELSE
    v_day := NEW.day; v_nat := NEW.nationality;
    d_orders := NEW.orders - OLD.orders;
    d_priority := NEW.priority_orders - OLD.priority_orders;
    d_future := NEW.future_orders - OLD.future_orders;
  END IF;
  IF d_orders <> 0 OR d_priority <> 0 OR d_future <> 0 THEN
    INSERT INTO report_country_monthly AS m (month, nationality, orders, priority_orders, future_orders)
    VALUES (date_trunc('month', v_day)::date, v_nat, d_orders, d_priority, d_future)
    ON CONFLICT (month, nationality) DO UPDATE SET
      orders = m.orders + excluded.orders,
      priority_orders = m.priority_orders + excluded.priority_orders,
      future_orders = m.future_orders + excluded.future_orders;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_truncate_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    DELETE FROM report_country_daily;
    DELETE FROM report_country_monthly;
  ELSE
    DELETE FROM report_processed_daily;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO report_country_monthly (month, nationality, orders, priority_orders, future_orders)
SELECT date_trunc('month', day)::date, nationality, sum(orders), sum(priority_orders), sum(future_orders)
FROM report_country_daily GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER report_country_monthly_sync AFTER INSERT OR UPDATE OR DELETE ON report_country_daily
  FOR EACH ROW EXECUTE FUNCTION report_country_monthly_sync();

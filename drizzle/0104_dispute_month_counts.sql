-- The dispute ratios from counters (decision 431): per month of the service time zone (America/New_York)
-- and card brand, the settled charges (paid orders made in the month), the disputes opened in the month
-- by reason, the early fraud warnings of the month and the disputes closed won or lost in the month. The
-- triggers of orders, payment_charges, payment_disputes and payment_fraud_warnings keep them in the
-- transaction of each change, so the ratios (and the band check after each dispute) read 13 months of a
-- few rows each instead of a year of orders with a brand lookup per order.
-- An order's brand is the one the ratios always used: its first charge's (by id) from the provider's
-- events, else the intake's, else 'other', as stored (the reader maps it to the card network). A change
-- of that brand (a first charge arriving, the intake's brand corrected) moves every figure of the order.
-- `reason` is the dispute's reason ('unknown' when the provider gave none); the other figures are kept
-- under the reason ''. The paid orders' creation index was the old read's only: every order write
-- updates one index fewer without it.
CREATE TABLE "dispute_month_counts" (
	"month" date NOT NULL,
	"brand" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"settled" integer DEFAULT 0 NOT NULL,
	"settled_cents" bigint DEFAULT 0 NOT NULL,
	"disputes" integer DEFAULT 0 NOT NULL,
	"dispute_cents" bigint DEFAULT 0 NOT NULL,
	"warnings" integer DEFAULT 0 NOT NULL,
	"won" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dispute_month_counts_month_brand_reason_pk" PRIMARY KEY("month","brand","reason")
);
--> statement-breakpoint
CREATE TYPE dispute_figure AS (
  month date, brand text, reason text, settled integer, settled_cents bigint,
  disputes integer, dispute_cents bigint, warnings integer, won integer, lost integer
);
--> statement-breakpoint
-- The first day of the moment's month in the service time zone.
CREATE FUNCTION dispute_month(timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', $1 AT TIME ZONE 'America/New_York')::date
$$;
--> statement-breakpoint
-- The brand the ratios count an order under (arguments: its id and its intake's card_brand).
CREATE FUNCTION dispute_brand(bigint, text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT pc.brand FROM payment_charges pc WHERE pc.order_id = $1 ORDER BY pc.id LIMIT 1), $2, 'other')
$$;
--> statement-breakpoint
-- Adds signed figures to the counters; keys sorted so concurrent writers lock counter rows in one order,
-- and figures that cancel out write nothing.
CREATE FUNCTION dispute_counts_add(f dispute_figure[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(f) IS NULL OR cardinality(f) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO dispute_month_counts AS t
    (month, brand, reason, settled, settled_cents, disputes, dispute_cents, warnings, won, lost)
  SELECT x.month, x.brand, x.reason, sum(x.settled), sum(x.settled_cents), sum(x.disputes), sum(x.dispute_cents),
         sum(x.warnings), sum(x.won), sum(x.lost)
  FROM unnest(f) x
  GROUP BY 1, 2, 3
  HAVING sum(x.settled) <> 0 OR sum(x.settled_cents) <> 0 OR sum(x.disputes) <> 0 OR sum(x.dispute_cents) <> 0
      OR sum(x.warnings) <> 0 OR sum(x.won) <> 0 OR sum(x.lost) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (month, brand, reason) DO UPDATE SET
    settled = t.settled + excluded.settled,
    settled_cents = t.settled_cents + excluded.settled_cents,
    disputes = t.disputes + excluded.disputes,
    dispute_cents = t.dispute_cents + excluded.dispute_cents,
    warnings = t.warnings + excluded.warnings,
    won = t.won + excluded.won,
    lost = t.lost + excluded.lost;
END $$;
--> statement-breakpoint
-- A paid order's settled charge under a brand, signed.
CREATE FUNCTION dispute_settled_figure(created timestamptz, amount numeric, currency text, brand text, s integer)
RETURNS dispute_figure LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(dispute_month(created), brand, '', s,
             s * CASE WHEN currency = 'USD' THEN round(amount * 100)::bigint ELSE 0 END,
             0, 0, 0, 0, 0)::dispute_figure
  WHERE amount > 0
$$;
--> statement-breakpoint
-- A dispute's figures under a brand, signed: opened in its month, and won or lost in the month it closed.
CREATE FUNCTION dispute_dispute_figures(created timestamptz, closed timestamptz, status text, reason text,
                                        amount bigint, currency text, brand text, s integer)
RETURNS SETOF dispute_figure LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(dispute_month(created), brand, coalesce(reason, 'unknown'), 0, 0::bigint,
             s, s * CASE WHEN currency = 'USD' THEN amount ELSE 0 END, 0, 0, 0)::dispute_figure
  UNION ALL
  SELECT ROW(dispute_month(closed), brand, '', 0, 0::bigint, 0, 0::bigint, 0,
             s * (status = 'won')::int, s * (status = 'lost')::int)::dispute_figure
  WHERE closed IS NOT NULL AND status IN ('won', 'lost')
$$;
--> statement-breakpoint
-- An early fraud warning's figure under a brand, signed.
CREATE FUNCTION dispute_warning_figure(created timestamptz, brand text, s integer)
RETURNS dispute_figure LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(dispute_month(created), brand, '', 0, 0::bigint, 0, 0::bigint, s, 0, 0)::dispute_figure
$$;
--> statement-breakpoint
-- Every figure of the orders under the brands given (arrays side by side), signed; with_settled: their
-- settled charges too (not when the order's own row is what changed: its trigger counts those).
CREATE FUNCTION dispute_order_figures(ids bigint[], brands text[], s integer, with_settled boolean)
RETURNS SETOF dispute_figure LANGUAGE sql STABLE AS $$
  WITH m AS (SELECT * FROM unnest(ids, brands) AS m(order_id, brand))
  SELECT f.* FROM m JOIN orders o ON o.order_id = m.order_id
  CROSS JOIN LATERAL dispute_settled_figure(o.created_at, o.amount, o.currency, m.brand, s) f
  WHERE with_settled AND o.amount > 0
  UNION ALL
  SELECT f.* FROM m JOIN payment_disputes d ON d.order_id = m.order_id
  CROSS JOIN LATERAL dispute_dispute_figures(d.created_at, d.closed_at, d.status, d.reason, d.amount, d.currency, m.brand, s) f
  UNION ALL
  SELECT f.* FROM m JOIN payment_fraud_warnings w ON w.order_id = m.order_id
  CROSS JOIN LATERAL dispute_warning_figure(w.created_at, m.brand, s) f
$$;
--> statement-breakpoint
-- Orders inserted or deleted: their settled charges (a statement trigger: one upsert per statement).
CREATE FUNCTION dispute_counts_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM dispute_counts_add(ARRAY(
      SELECT dispute_settled_figure(n.created_at, n.amount, n.currency, dispute_brand(n.order_id, n.card_brand), 1)
      FROM new_rows n WHERE n.amount > 0));
  ELSE
    PERFORM dispute_counts_add(ARRAY(
      SELECT dispute_settled_figure(o.created_at, o.amount, o.currency, dispute_brand(o.order_id, o.card_brand), -1)
      FROM old_rows o WHERE o.amount > 0));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An order whose amount, currency, creation or intake brand changed (a row trigger that fires only for
-- those columns, so the many updates that change none of them cost nothing here): its settled charge
-- moves, and on a brand change every dispute and warning of it moves too.
CREATE FUNCTION dispute_counts_order_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was text := dispute_brand(OLD.order_id, OLD.card_brand);
  now_brand text := dispute_brand(NEW.order_id, NEW.card_brand);
  f dispute_figure[] := '{}';
BEGIN
  IF OLD.amount > 0 THEN
    f := f || dispute_settled_figure(OLD.created_at, OLD.amount, OLD.currency, was, -1);
  END IF;
  IF NEW.amount > 0 THEN
    f := f || dispute_settled_figure(NEW.created_at, NEW.amount, NEW.currency, now_brand, 1);
  END IF;
  IF was <> now_brand THEN
    f := f || ARRAY(SELECT x FROM dispute_order_figures(ARRAY[NEW.order_id], ARRAY[was], -1, false) x)
           || ARRAY(SELECT x FROM dispute_order_figures(ARRAY[NEW.order_id], ARRAY[now_brand], 1, false) x);
  END IF;
  PERFORM dispute_counts_add(f);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Charges inserted, changed or deleted: an order whose first charge's brand is no longer the same moves
-- every figure from the brand it had (the charges as they were: this table without the statement's new
-- rows, with its old ones) to the brand it has now.
CREATE FUNCTION dispute_counts_charges() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
  befores text[];
  afters text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH touched AS (SELECT DISTINCT order_id FROM new_rows WHERE order_id IS NOT NULL),
    was AS (
      SELECT pc.id, pc.order_id, pc.brand FROM payment_charges pc
      WHERE pc.order_id IN (SELECT order_id FROM touched) AND pc.id NOT IN (SELECT id FROM new_rows)),
    b AS (
      SELECT o.order_id,
             coalesce((SELECT w.brand FROM was w WHERE w.order_id = o.order_id ORDER BY w.id LIMIT 1), o.card_brand, 'other') AS old_brand,
             dispute_brand(o.order_id, o.card_brand) AS new_brand
      FROM orders o WHERE o.order_id IN (SELECT order_id FROM touched))
    SELECT array_agg(order_id), array_agg(old_brand), array_agg(new_brand) INTO ids, befores, afters
    FROM b WHERE old_brand <> new_brand;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH touched AS (
      SELECT order_id FROM new_rows WHERE order_id IS NOT NULL
      UNION SELECT order_id FROM old_rows WHERE order_id IS NOT NULL),
    was AS (
      SELECT pc.id, pc.order_id, pc.brand FROM payment_charges pc
      WHERE pc.order_id IN (SELECT order_id FROM touched) AND pc.id NOT IN (SELECT id FROM new_rows)
      UNION ALL SELECT id, order_id, brand FROM old_rows),
    b AS (
      SELECT o.order_id,
             coalesce((SELECT w.brand FROM was w WHERE w.order_id = o.order_id ORDER BY w.id LIMIT 1), o.card_brand, 'other') AS old_brand,
             dispute_brand(o.order_id, o.card_brand) AS new_brand
      FROM orders o WHERE o.order_id IN (SELECT order_id FROM touched))
    SELECT array_agg(order_id), array_agg(old_brand), array_agg(new_brand) INTO ids, befores, afters
    FROM b WHERE old_brand <> new_brand;
  ELSE
    WITH touched AS (SELECT DISTINCT order_id FROM old_rows WHERE order_id IS NOT NULL),
    was AS (
      SELECT pc.id, pc.order_id, pc.brand FROM payment_charges pc
      WHERE pc.order_id IN (SELECT order_id FROM touched)
      UNION ALL SELECT id, order_id, brand FROM old_rows),
    b AS (
      SELECT o.order_id,
             coalesce((SELECT w.brand FROM was w WHERE w.order_id = o.order_id ORDER BY w.id LIMIT 1), o.card_brand, 'other') AS old_brand,
             dispute_brand(o.order_id, o.card_brand) AS new_brand
      FROM orders o WHERE o.order_id IN (SELECT order_id FROM touched))
    SELECT array_agg(order_id), array_agg(old_brand), array_agg(new_brand) INTO ids, befores, afters
    FROM b WHERE old_brand <> new_brand;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM dispute_counts_add(
      ARRAY(SELECT x FROM dispute_order_figures(ids, befores, -1, true) x)
      || ARRAY(SELECT x FROM dispute_order_figures(ids, afters, 1, true) x));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Disputes inserted, changed (a status, a closing) or deleted: the old rows' figures out, the new ones in.
CREATE FUNCTION dispute_counts_disputes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f dispute_figure[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN
    f := f || ARRAY(
      SELECT x FROM new_rows d JOIN orders o ON o.order_id = d.order_id
      CROSS JOIN LATERAL dispute_dispute_figures(d.created_at, d.closed_at, d.status, d.reason, d.amount,
                                                 d.currency, dispute_brand(o.order_id, o.card_brand), 1) x);
  END IF;
  IF TG_OP <> 'INSERT' THEN
    f := f || ARRAY(
      SELECT x FROM old_rows d JOIN orders o ON o.order_id = d.order_id
      CROSS JOIN LATERAL dispute_dispute_figures(d.created_at, d.closed_at, d.status, d.reason, d.amount,
                                                 d.currency, dispute_brand(o.order_id, o.card_brand), -1) x);
  END IF;
  PERFORM dispute_counts_add(f);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Early fraud warnings inserted, changed or deleted: the same for their month.
CREATE FUNCTION dispute_counts_warnings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f dispute_figure[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN
    f := f || ARRAY(
      SELECT dispute_warning_figure(w.created_at, dispute_brand(o.order_id, o.card_brand), 1)
      FROM new_rows w JOIN orders o ON o.order_id = w.order_id);
  END IF;
  IF TG_OP <> 'INSERT' THEN
    f := f || ARRAY(
      SELECT dispute_warning_figure(w.created_at, dispute_brand(o.order_id, o.card_brand), -1)
      FROM old_rows w JOIN orders o ON o.order_id = w.order_id);
  END IF;
  PERFORM dispute_counts_add(f);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The counters from the tables themselves: the first fill, and after a TRUNCATE of any of them.
CREATE FUNCTION dispute_month_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dispute_month_counts;
  INSERT INTO dispute_month_counts
    (month, brand, reason, settled, settled_cents, disputes, dispute_cents, warnings, won, lost)
  SELECT x.month, x.brand, x.reason, sum(x.settled), sum(x.settled_cents), sum(x.disputes), sum(x.dispute_cents),
         sum(x.warnings), sum(x.won), sum(x.lost)
  FROM (
    SELECT x.* FROM orders o
    CROSS JOIN LATERAL dispute_settled_figure(o.created_at, o.amount, o.currency, dispute_brand(o.order_id, o.card_brand), 1) x
    WHERE o.amount > 0
    UNION ALL
    SELECT x.* FROM payment_disputes d JOIN orders o ON o.order_id = d.order_id
    CROSS JOIN LATERAL dispute_dispute_figures(d.created_at, d.closed_at, d.status, d.reason, d.amount,
                                               d.currency, dispute_brand(o.order_id, o.card_brand), 1) x
    UNION ALL
    SELECT x.* FROM payment_fraud_warnings w JOIN orders o ON o.order_id = w.order_id
    CROSS JOIN LATERAL dispute_warning_figure(w.created_at, dispute_brand(o.order_id, o.card_brand), 1) x
  ) x
  GROUP BY 1, 2, 3;
END $$;
--> statement-breakpoint
CREATE FUNCTION dispute_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dispute_month_counts_rebuild();
  RETURN NULL;
END $$;
--> statement-breakpoint
SELECT dispute_month_counts_rebuild();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_orders_ins AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_orders();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_orders_del AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_orders();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_orders_upd AFTER UPDATE OF amount, currency, created_at, card_brand ON orders
  FOR EACH ROW WHEN (OLD.amount IS DISTINCT FROM NEW.amount OR OLD.currency IS DISTINCT FROM NEW.currency
                     OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.card_brand IS DISTINCT FROM NEW.card_brand)
  EXECUTE FUNCTION dispute_counts_order_update();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_charges_ins AFTER INSERT ON payment_charges REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_charges();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_charges_upd AFTER UPDATE ON payment_charges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_charges();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_charges_del AFTER DELETE ON payment_charges REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_charges();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_disputes_ins AFTER INSERT ON payment_disputes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_disputes();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_disputes_upd AFTER UPDATE ON payment_disputes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_disputes();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_disputes_del AFTER DELETE ON payment_disputes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_disputes();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_warnings_ins AFTER INSERT ON payment_fraud_warnings REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_warnings();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_warnings_upd AFTER UPDATE ON payment_fraud_warnings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_warnings();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_warnings_del AFTER DELETE ON payment_fraud_warnings REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_warnings();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_truncated();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_truncate AFTER TRUNCATE ON payment_charges
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_truncated();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_truncate AFTER TRUNCATE ON payment_disputes
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_truncated();
--> statement-breakpoint
CREATE TRIGGER dispute_counts_truncate AFTER TRUNCATE ON payment_fraud_warnings
  FOR EACH STATEMENT EXECUTE FUNCTION dispute_counts_truncated();
--> statement-breakpoint
DROP INDEX IF EXISTS "orders_created_at_amount_idx";

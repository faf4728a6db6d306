-- The disputed order's due time (the deadline of its open dispute) is looked up only for an order in
-- ChargeBack: the trigger's own first test, now its WHEN clause, so a statement that moves many other
-- orders (the submission window's opener: 10,000 New orders at once) calls no function per row for it
-- (decision 433). Same behaviour: the function still returns the row unchanged for any other status.
DROP TRIGGER orders_due_at_dispute ON orders;
--> statement-breakpoint
CREATE TRIGGER orders_due_at_dispute BEFORE INSERT OR UPDATE OF process_status, processing_mode, created_at, processing_date, arrival_date, due_at
  ON orders FOR EACH ROW WHEN (NEW.process_status = 'ChargeBack') EXECUTE FUNCTION orders_dispute_due_set();

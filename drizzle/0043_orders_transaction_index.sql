-- Provider events name the payment (charge or payment intent id): find its order without reading them all.
CREATE INDEX IF NOT EXISTS "orders_transaction_id_idx" ON "orders" USING btree ("transaction_id") WHERE "orders"."transaction_id" is not null;

-- The call-backs due are counted on every folder-count request: read from the logged call-backs (few)
-- towards their orders instead of from every order a staff member holds.
CREATE INDEX "order_contacts_call_back_idx" ON "order_contacts" USING btree ("call_back_at") WHERE "order_contacts"."outcome" = 'call_back';

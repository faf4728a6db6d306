-- Dispute events apply in the provider's order (decision 356): the created time of the latest event
-- applied to a dispute; an older one, a lower status or anything after it closed changes nothing.
ALTER TABLE "payment_disputes" ADD COLUMN "last_event_at" timestamp with time zone;

-- The order event actions of every feature of this round in one check (payments, customer answers and
-- bounces, corrections and duplicate decisions): each earlier migration re-created the check with its own
-- list, and the last one applied would otherwise win.
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_action_ck";--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_action_ck" CHECK ("order_events"."action" in ('created', 'status', 'assign', 'takeover', 'remark', 'upload', 'withdraw', 'mail', 'transaction', 'customer_download', 'erase', 'language', 'payment', 'customer_reply', 'bounce', 'correction', 'duplicate'));

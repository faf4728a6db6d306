CREATE TABLE "order_contacts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"staff_id" integer,
	"channel" text NOT NULL,
	"outcome" text NOT NULL,
	"call_back_at" timestamp with time zone,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_contacts_channel_ck" CHECK ("order_contacts"."channel" in ('call', 'whatsapp')),
	CONSTRAINT "order_contacts_outcome_ck" CHECK ("order_contacts"."outcome" in ('reached', 'no_answer', 'wrong_number', 'call_back')),
	CONSTRAINT "order_contacts_note_len_ck" CHECK (char_length("order_contacts"."note") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "order_contacts" ADD CONSTRAINT "order_contacts_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_contacts" ADD CONSTRAINT "order_contacts_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_contacts_order_idx" ON "order_contacts" USING btree ("order_id","created_at");--> statement-breakpoint
-- The order event actions with 'contact' (the full list, as src/shared/constants.ts).
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_action_ck";--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_action_ck" CHECK ("order_events"."action" in ('created', 'status', 'assign', 'takeover', 'remark', 'upload', 'withdraw', 'mail', 'transaction', 'customer_download', 'erase', 'language', 'payment', 'customer_reply', 'bounce', 'correction', 'duplicate', 'contact'));

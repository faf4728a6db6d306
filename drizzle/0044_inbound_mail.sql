ALTER TABLE "order_events" DROP CONSTRAINT "order_events_action_ck";--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_action_ck" CHECK ("order_events"."action" in ('created', 'status', 'assign', 'takeover', 'remark', 'upload', 'withdraw', 'mail', 'transaction', 'customer_download', 'erase', 'language', 'customer_reply', 'bounce'));--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "our_message_id" text;--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "bounced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "bounce_reason" text;--> statement-breakpoint
CREATE INDEX "mail_log_message_id_idx" ON "mail_log" USING btree ("message_id") WHERE "message_id" is not null;--> statement-breakpoint
CREATE INDEX "mail_log_our_message_id_idx" ON "mail_log" USING btree ("our_message_id") WHERE "our_message_id" is not null;--> statement-breakpoint
CREATE INDEX "mail_log_provider_message_id_idx" ON "mail_log" USING btree ("provider_message_id") WHERE "provider_message_id" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_replied_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_customer_replied_idx" ON "orders" USING btree ("assigned_to","customer_replied_at") WHERE "customer_replied_at" is not null;--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint,
	"source" text NOT NULL,
	"disposition" text NOT NULL,
	"matched_by" text,
	"message_id" text,
	"from_email" text,
	"from_name" text,
	"subject" text,
	"body_text" text DEFAULT '' NOT NULL,
	"quoted_text" text DEFAULT '' NOT NULL,
	"was_html" boolean DEFAULT false NOT NULL,
	"size_bytes" integer DEFAULT 0 NOT NULL,
	"refused_attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bounced_mail_id" bigint,
	"bounce_status" text,
	"sent_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"attached_by" integer,
	CONSTRAINT "inbound_messages_source_ck" CHECK ("inbound_messages"."source" in ('mail', 'track')),
	CONSTRAINT "inbound_messages_disposition_ck" CHECK ("inbound_messages"."disposition" in ('attached', 'unmatched', 'auto-reply', 'bounce'))
);--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_bounced_mail_id_mail_log_id_fk" FOREIGN KEY ("bounced_mail_id") REFERENCES "public"."mail_log"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_attached_by_staff_users_id_fk" FOREIGN KEY ("attached_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_message_id_uq" ON "inbound_messages" USING btree ("message_id") WHERE "message_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_order_idx" ON "inbound_messages" USING btree ("order_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_messages_unmatched_idx" ON "inbound_messages" USING btree ("received_at") WHERE "disposition" = 'unmatched';--> statement-breakpoint
CREATE TABLE "inbound_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"inbound_id" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "inbound_attachments" ADD CONSTRAINT "inbound_attachments_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_attachments_inbound_idx" ON "inbound_attachments" USING btree ("inbound_id");--> statement-breakpoint
CREATE TABLE "failing_addresses" (
	"email" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"mail_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

-- "Save as document": a file a customer sent, kept with the order's documents without becoming the approved card.
ALTER TABLE "inbound_attachments" ADD COLUMN "saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_attachments" ADD COLUMN "saved_by" integer;--> statement-breakpoint
ALTER TABLE "inbound_attachments" ADD CONSTRAINT "inbound_attachments_saved_by_staff_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;

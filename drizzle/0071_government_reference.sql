-- The government step: the reference the government's portal gave when the order
-- was submitted, when and by whom; an exact search for a reference reads its own index.
ALTER TABLE "orders" ADD COLUMN "government_reference" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "submitted_by" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_submitted_by_staff_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_government_reference_idx" ON "orders" USING btree (upper("government_reference")) WHERE "orders"."government_reference" is not null;

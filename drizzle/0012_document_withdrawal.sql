ALTER TABLE "documents" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "withdrawn_by" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "withdraw_reason" text;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_withdrawn_by_staff_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;
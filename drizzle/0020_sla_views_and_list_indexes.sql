CREATE TABLE "saved_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"folder" text NOT NULL,
	"query" jsonb NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_owner_id_staff_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_views_owner_idx" ON "saved_views" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "saved_views_shared_idx" ON "saved_views" USING btree ("id") WHERE "saved_views"."shared";--> statement-breakpoint
CREATE INDEX "orders_due_idx" ON "orders" USING btree ("due_at","order_id") WHERE "orders"."due_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_status_due_idx" ON "orders" USING btree ("process_status","due_at","order_id");--> statement-breakpoint
CREATE INDEX "orders_arrival_idx" ON "orders" USING btree ("arrival_date","order_id");--> statement-breakpoint
CREATE INDEX "orders_status_arrival_idx" ON "orders" USING btree ("process_status","arrival_date","order_id");
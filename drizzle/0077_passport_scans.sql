-- The passport scan (docs/product.md, "Passport scan"): the machine-readable zone read from a passport image an order received,
-- with its values against the order's.
CREATE TABLE "passport_scans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "passport_scans_status_ck" CHECK ("passport_scans"."status" in ('read', 'unreadable'))
);
--> statement-breakpoint
ALTER TABLE "passport_scans" ADD CONSTRAINT "passport_scans_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "passport_scans_order_idx" ON "passport_scans" USING btree ("order_id","created_at");

-- The card check (docs/product.md, "Card check"): what was read from each approved card and how it compares with its order;
-- the same file on two orders is found through the documents' sha256.
CREATE TABLE "card_checks" (
	"document_id" bigint PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"result" text,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"qr" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duplicate_of" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"released_by" integer,
	"release_reason" text,
	CONSTRAINT "card_checks_result_ck" CHECK ("card_checks"."result" is null or "card_checks"."result" in ('pass', 'mismatch', 'unread'))
);
--> statement-breakpoint
ALTER TABLE "card_checks" ADD CONSTRAINT "card_checks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_checks" ADD CONSTRAINT "card_checks_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_checks" ADD CONSTRAINT "card_checks_released_by_staff_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_checks_order_idx" ON "card_checks" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "documents_sha256_idx" ON "documents" USING btree ("sha256");

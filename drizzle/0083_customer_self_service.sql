-- Customers help themselves on the track page (docs/product.md, "Customers help themselves"): a change
-- made by the customer is marked on its order event, the order carries a "Customer edited" flag until
-- staff open it, a cancellation is recorded once per order (a replay answers the first result), and a
-- rating is kept once per order (a later answer replaces it) with the feedback mail sent once.
ALTER TABLE "order_events" ADD COLUMN "actor_kind" text;
--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor_kind_ck" CHECK ("order_events"."actor_kind" is null or "order_events"."actor_kind" = 'customer');
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_edited_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "customer_cancellations" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"percent" integer NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"from_status" text NOT NULL,
	"outcome" text NOT NULL,
	"refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_cancellations_outcome_ck" CHECK ("customer_cancellations"."outcome" in ('refunded', 'refunds')),
	CONSTRAINT "customer_cancellations_percent_ck" CHECK ("customer_cancellations"."percent" between 0 and 100),
	CONSTRAINT "customer_cancellations_reason_len_ck" CHECK (char_length("customer_cancellations"."reason") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "customer_cancellations" ADD CONSTRAINT "customer_cancellations_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "order_ratings" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"score" integer NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_ratings_score_ck" CHECK ("order_ratings"."score" between 1 and 5),
	CONSTRAINT "order_ratings_comment_len_ck" CHECK (char_length("order_ratings"."comment") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "order_ratings" ADD CONSTRAINT "order_ratings_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "order_ratings_updated_idx" ON "order_ratings" USING btree ("updated_at");
--> statement-breakpoint
CREATE TABLE "rating_requests" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rating_requests" ADD CONSTRAINT "rating_requests_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;

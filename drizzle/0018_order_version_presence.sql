CREATE TABLE "order_presence" (
	"order_id" bigint NOT NULL,
	"staff_id" integer NOT NULL,
	"editing" boolean DEFAULT false NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_presence_order_id_staff_id_pk" PRIMARY KEY("order_id","staff_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_presence" ADD CONSTRAINT "order_presence_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_presence" ADD CONSTRAINT "order_presence_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_presence_seen_idx" ON "order_presence" USING btree ("seen_at");
CREATE TABLE "waiting_steps" (
	"order_id" bigint NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"step" integer NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waiting_steps_order_id_since_step_pk" PRIMARY KEY("order_id","since","step")
);--> statement-breakpoint
ALTER TABLE "waiting_steps" ADD CONSTRAINT "waiting_steps_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;

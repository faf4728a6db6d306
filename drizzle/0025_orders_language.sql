ALTER TABLE "orders" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_language_ck" CHECK ("orders"."language" in ('en', 'es', 'nl', 'pap', 'pt'));
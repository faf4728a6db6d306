-- Team routing (docs/product.md, "Routing"): what each staff member can take. `capacity` caps the open
-- orders routing hands them, `languages` the customer languages they answer in, `shift` their weekly hours
-- in the service time zone (null: never routed), `away` (until `away_until` when set) keeps routing off them.
ALTER TABLE "staff_users" ADD COLUMN "capacity" integer DEFAULT 25 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "languages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "shift" jsonb;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "away" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "away_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_capacity_ck" CHECK ("staff_users"."capacity" between 0 and 200);--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_languages_ck" CHECK ("staff_users"."languages" <@ array['en', 'es', 'nl', 'pap', 'pt']::text[]);

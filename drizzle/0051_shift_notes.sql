-- Shift notes (docs/decisions/318): one shift hands over to the next on the dashboard. Each note keeps
-- who wrote it and when; the newest is shown. Writing one is also recorded in the audit log.
CREATE TABLE "shift_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"author_id" integer NOT NULL REFERENCES "staff_users"("id"),
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shift_notes_body_ck" CHECK (char_length("body") BETWEEN 1 AND 2000)
);
--> statement-breakpoint
CREATE INDEX "shift_notes_created_idx" ON "shift_notes" USING btree ("created_at" DESC, "id" DESC);

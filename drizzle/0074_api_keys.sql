-- Machines that submit (docs/product.md, "Machines that submit"): API keys for machines, each with its
-- own staff_users row (role Team, no usable password, no shift, capacity 0) that holds the orders its
-- jobs claim, shown as "<key name> (machine)" (decision 365). The key itself is stored as its sha256.
CREATE TABLE "api_keys" (
  "id" serial PRIMARY KEY,
  "name" text NOT NULL,
  "key_hash" text NOT NULL,
  "scopes" text[] NOT NULL,
  "max_per_minute" integer NOT NULL DEFAULT 6,
  "machine_user_id" integer NOT NULL REFERENCES "staff_users"("id"),
  "created_by" integer REFERENCES "staff_users"("id"),
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "revoked_at" timestamp with time zone,
  CONSTRAINT "api_keys_max_per_minute_ck" CHECK ("max_per_minute" between 1 and 600)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_uq" ON "api_keys" ("key_hash");
--> statement-breakpoint
-- One claim of an order by a machine: open until its result or until expires_at (the policy's jobMinutes).
CREATE TABLE "submission_jobs" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "api_key_id" integer NOT NULL REFERENCES "api_keys"("id"),
  "order_id" bigint NOT NULL REFERENCES "orders"("order_id"),
  "state" text NOT NULL DEFAULT 'open',
  "claimed_at" timestamp with time zone NOT NULL DEFAULT now(),
  "expires_at" timestamp with time zone NOT NULL,
  "finished_at" timestamp with time zone,
  "error" text,
  CONSTRAINT "submission_jobs_state_ck" CHECK ("state" in ('open', 'submitted', 'failed', 'expired'))
);
--> statement-breakpoint
CREATE INDEX "submission_jobs_open_idx" ON "submission_jobs" ("expires_at") WHERE "state" = 'open';
--> statement-breakpoint
CREATE INDEX "submission_jobs_order_idx" ON "submission_jobs" ("order_id");

CREATE TABLE "report_country_daily" (
	"day" date NOT NULL,
	"nationality" text NOT NULL,
	"processing_mode" text NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "report_country_daily_day_nationality_processing_mode_pk" PRIMARY KEY("day","nationality","processing_mode")
);
--> statement-breakpoint
CREATE TABLE "report_future_daily" (
	"day" date NOT NULL,
	"nationality" text NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "report_future_daily_day_nationality_pk" PRIMARY KEY("day","nationality")
);
--> statement-breakpoint
CREATE TABLE "report_future_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"as_of" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_processed_daily" (
	"day" date NOT NULL,
	"actor_id" integer NOT NULL,
	"completions" integer NOT NULL,
	CONSTRAINT "report_processed_daily_day_actor_id_pk" PRIMARY KEY("day","actor_id")
);

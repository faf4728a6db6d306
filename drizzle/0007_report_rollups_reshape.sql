CREATE TABLE "report_country_daily" (
	"day" date NOT NULL,
	"nationality" text NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"priority_orders" integer DEFAULT 0 NOT NULL,
	"future_orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_country_daily_day_nationality_pk" PRIMARY KEY("day","nationality")
);

CREATE TABLE "report_country_monthly" (
	"month" date NOT NULL,
	"nationality" text NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"priority_orders" integer DEFAULT 0 NOT NULL,
	"future_orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_country_monthly_month_nationality_pk" PRIMARY KEY("month","nationality")
);

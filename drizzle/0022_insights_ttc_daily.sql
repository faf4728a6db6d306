CREATE TABLE "insights_ttc_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"median_hours" integer,
	"p90_hours" integer
);

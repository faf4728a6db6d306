DROP TABLE "report_country_daily" CASCADE;--> statement-breakpoint
DROP TABLE "report_future_daily" CASCADE;
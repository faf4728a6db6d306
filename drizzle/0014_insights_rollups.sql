CREATE TABLE "insights_daily" (
	"day" date NOT NULL,
	"actor_id" integer NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"deleted" integer DEFAULT 0 NOT NULL,
	"chargebacks" integer DEFAULT 0 NOT NULL,
	"status_moves" integer DEFAULT 0 NOT NULL,
	"remarks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_daily_day_actor_id_pk" PRIMARY KEY("day","actor_id")
);
--> statement-breakpoint
CREATE TABLE "insights_duration_daily" (
	"day" date NOT NULL,
	"kind" integer NOT NULL,
	"actor_id" integer NOT NULL,
	"hours" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "insights_duration_daily_day_kind_actor_id_hours_pk" PRIMARY KEY("day","kind","actor_id","hours")
);
--> statement-breakpoint
CREATE TABLE "insights_mail_daily" (
	"day" date NOT NULL,
	"provider" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_mail_daily_day_provider_pk" PRIMARY KEY("day","provider")
);

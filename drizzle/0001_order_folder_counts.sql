CREATE TABLE "order_folder_counts" (
	"process_status" text NOT NULL,
	"processing_mode" text NOT NULL,
	"assigned_to" integer,
	"due_date" date,
	"n" bigint NOT NULL,
	CONSTRAINT "order_folder_counts_key" UNIQUE NULLS NOT DISTINCT("process_status","processing_mode","assigned_to","due_date")
);

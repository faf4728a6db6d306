-- The raw RFC 822 source of each message that comes in by mail, kept so a corrected matcher can run
-- again over old mail. A table beside inbound_messages rather than a column of it: the conversation
-- reads message rows whole and never needs these bytes. At most the parser's limit of one message
-- (25 MB). Erasing an order deletes the raw messages of its conversation; a deleted message row takes
-- its raw source with it. Messages received before this migration have none.
CREATE TABLE "inbound_raw_messages" (
	"inbound_id" bigint PRIMARY KEY NOT NULL,
	"source" bytea NOT NULL,
	CONSTRAINT "inbound_raw_messages_size_ck" CHECK (octet_length("source") <= 26214400)
);--> statement-breakpoint
ALTER TABLE "inbound_raw_messages" ADD CONSTRAINT "inbound_raw_messages_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE cascade ON UPDATE no action;

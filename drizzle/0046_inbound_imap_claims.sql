CREATE TABLE "inbound_imap_claims" (
	"mailbox" text NOT NULL,
	"uid_validity" bigint NOT NULL,
	"uid" bigint NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_imap_claims_mailbox_uid_validity_uid_pk" PRIMARY KEY("mailbox","uid_validity","uid")
);

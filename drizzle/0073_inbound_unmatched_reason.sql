-- Government mail: a message to an application address whose sender is not
-- authenticated as the government goes to Unmatched Mail with the reason.
ALTER TABLE "inbound_messages" ADD COLUMN "unmatched_reason" text;

-- A staff reply written as free text: the mail carries its text instead of a template (decision 328).
ALTER TABLE "mail_log" ADD COLUMN "body_text" text;

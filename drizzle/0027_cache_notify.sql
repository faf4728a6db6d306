-- The in-memory caches of each server instance (folder counts, the due-time policy, the staff lookup)
-- hear of every committed change on the channel 'edcard_cache' (docs/decisions/220 and 221). PostgreSQL
-- delivers a notification only when its transaction commits, and once per distinct payload per
-- transaction, so a burst of changes costs one message.
CREATE OR REPLACE FUNCTION cache_notify_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('edcard_cache', 'counts');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every statement on orders runs the counter upsert (even when no counter moves), so this also covers
-- changes of due_at, which the due-time counts read.
CREATE TRIGGER order_folder_counts_cache_notify AFTER INSERT OR UPDATE OR DELETE ON order_folder_counts
  FOR EACH STATEMENT EXECUTE FUNCTION cache_notify_counts();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cache_notify_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('edcard_cache', 'settings');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER app_settings_cache_notify AFTER INSERT OR UPDATE OR DELETE ON app_settings
  FOR EACH STATEMENT EXECUTE FUNCTION cache_notify_settings();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cache_notify_staff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('edcard_cache', 'staff:' || coalesce(NEW.id, OLD.id)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cache_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('edcard_cache', 'staff:' || coalesce(NEW.user_id, OLD.user_id)::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER staff_users_cache_notify AFTER UPDATE OR DELETE ON staff_users
  FOR EACH ROW EXECUTE FUNCTION cache_notify_staff();
--> statement-breakpoint
-- last_seen_at moves once a minute per session and is kept by the cache itself: not a change to hear.
CREATE TRIGGER staff_sessions_cache_notify AFTER UPDATE OF ended_at, pending, expires_at OR DELETE
  ON staff_sessions FOR EACH ROW EXECUTE FUNCTION cache_notify_session();

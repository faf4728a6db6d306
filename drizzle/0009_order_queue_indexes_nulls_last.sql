-- The foundation's indexes sort "created_at DESC NULLS LAST, order_id DESC NULLS LAST"; the queue indexes
-- now sort the same way, so every folder list uses one ordering and the per-status folders can read
-- orders_status_created_idx index-only (docs/decisions/020-folder-counters.md).
DROP INDEX IF EXISTS orders_q_new_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS orders_q_priority_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS orders_q_pending_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS orders_q_status_new_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS orders_q_my_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS orders_q_all_idx;
--> statement-breakpoint
CREATE INDEX orders_q_new_idx ON orders (created_at DESC NULLS LAST, order_id DESC NULLS LAST) INCLUDE (processing_date)
  WHERE process_status = 'New' AND assigned_to IS NULL AND processing_mode <> 'Priority';
--> statement-breakpoint
CREATE INDEX orders_q_priority_idx ON orders (created_at DESC NULLS LAST, order_id DESC NULLS LAST) INCLUDE (processing_date)
  WHERE process_status = 'New' AND assigned_to IS NULL AND processing_mode = 'Priority';
--> statement-breakpoint
CREATE INDEX orders_q_pending_idx ON orders (created_at DESC NULLS LAST, order_id DESC NULLS LAST)
  WHERE process_status = 'New' AND assigned_to IS NOT NULL;
--> statement-breakpoint
CREATE INDEX orders_q_status_new_idx ON orders (created_at DESC NULLS LAST, order_id DESC NULLS LAST) INCLUDE (processing_date)
  WHERE process_status = 'New';
--> statement-breakpoint
CREATE INDEX orders_q_my_idx ON orders (assigned_to, created_at DESC NULLS LAST, order_id DESC NULLS LAST)
  WHERE process_status NOT IN ('Completed', 'Deleted', 'Refunded');
--> statement-breakpoint
CREATE INDEX orders_q_all_idx ON orders (created_at DESC NULLS LAST, order_id DESC NULLS LAST)
  WHERE process_status <> 'Deleted';

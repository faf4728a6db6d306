import type { OrderDetails } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { column, DataTable } from '../components/list-kit/data-table';
import { MSG } from '../../shared/messages';
import { fieldLabel, fieldValue } from './field-labels';
import { Section } from './section';

/** Readable names of the order event actions; an unknown action shows as stored. */
const ACTIONS: Record<string, string> = {
  created: 'Order received',
  status: 'Status changed',
  assign: 'Assignment changed',
  remark: 'Remark added',
  upload: 'Document uploaded',
  mail: 'Mail',
  transaction: 'Transaction details saved',
  customer_download: 'Customer downloaded',
  language: 'Customer language',
  correction: 'Data corrected',
  duplicate: 'Duplicate decision',
};

/** A correction's values are one JSON object per side ({field: value}): one line per field. */
function EventValue({ action, value }: { action: string; value: string | null }) {
  if (value === null) return <>-</>;
  if (action !== 'correction') return <>{value}</>;
  try {
    const fields = JSON.parse(value) as Record<string, string | null>;
    return (
      <>
        {Object.entries(fields).map(([field, v]) => (
          <div key={field}>
            {fieldLabel(field)}: {fieldValue(field, v)}
          </div>
        ))}
      </>
    );
  } catch {
    return <>{value}</>;
  }
}

type TimelineEvent = OrderDetails['events'][number];
const EVENT_COLUMNS = [
  column<TimelineEvent>('Date & Time', (event) => <DateTime value={event.create_ts} />),
  column<TimelineEvent>('By', (event) => event.actor_name ?? 'System'),
  column<TimelineEvent>('Action', (event) => ACTIONS[event.action] ?? event.action),
  column<TimelineEvent>('From', (event) => <EventValue action={event.action} value={event.from_value} />),
  column<TimelineEvent>('To', (event) => <EventValue action={event.action} value={event.to_value} />),
];
const byId = (event: TimelineEvent) => String(event.id);

/** The audit trail of the order: who did what, when (US Eastern time), from → to. */
export function StatusTimelineSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Status Timeline">
      <DataTable
        rows={order.events}
        columns={EVENT_COLUMNS}
        rowId={byId}
        className="table table-sm table-bordered align-middle mb-0"
        wrapClassName="table-responsive"
        empty={MSG.noRecord}
      />
    </Section>
  );
}

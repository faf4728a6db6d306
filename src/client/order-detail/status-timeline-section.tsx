import Table from 'react-bootstrap/Table';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { MSG } from '../../shared/messages';
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
            {field}: {v ?? '-'}
          </div>
        ))}
      </>
    );
  } catch {
    return <>{value}</>;
  }
}

/** The audit trail of the order: who did what, when (US Eastern time), from → to. */
export function StatusTimelineSection({ order }: { order: OrderDetails }) {
  return (
    <Section title="Status Timeline">
      <Table responsive bordered size="sm" className="align-middle mb-0">
        <thead>
          <tr>
            <th>Date &amp; Time</th>
            <th>By</th>
            <th>Action</th>
            <th>From</th>
            <th>To</th>
          </tr>
        </thead>
        <tbody>
          {order.events.length === 0 ? (
            <tr>
              <td colSpan={5} className="text-center text-muted">
                {MSG.noRecord}
              </td>
            </tr>
          ) : (
            order.events.map((event) => (
              <tr key={event.id}>
                <td>
                  <DateTime value={event.create_ts} />
                </td>
                <td>{event.actor_name ?? 'System'}</td>
                <td>{ACTIONS[event.action] ?? event.action}</td>
                <td>
                  <EventValue action={event.action} value={event.from_value} />
                </td>
                <td>
                  <EventValue action={event.action} value={event.to_value} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </Table>
    </Section>
  );
}

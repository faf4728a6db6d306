import { Fragment, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { OrderDetails, RemarkItem } from '../../shared/contracts/order-detail';
import { MSG } from '../../shared/messages';
import { DateTime } from '../components/date-time';
import { Section } from './section';

const FLAGS: [label: string, key: keyof RemarkItem][] = [
  ['Whatsapp', 'whatsapp'],
  ['Telephone', 'telephone'],
  ['Refund', 'status_refund'],
  ['Voided', 'voided'],
  ['Chargeback', 'chargeback'],
  ['ReportError', 'report_error'],
];

/** Remarks with a Show/Hide toggle revealing the text and the six flags (N when empty). */
export function CommentHistorySection({ order }: { order: OrderDetails }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Section title="Comment History">
      <Table responsive bordered size="sm" className="align-middle mb-0">
        <thead>
          <tr>
            <th>#</th>
            <th>Order ID</th>
            <th>Date &amp; Time</th>
            <th>Team</th>
            <th>Action</th>
          </tr>
        </thead>
        <tbody>
          {order.remarks.length === 0 ? (
            <tr>
              <td colSpan={5} className="text-center text-muted">
                {MSG.noRecord}
              </td>
            </tr>
          ) : (
            order.remarks.map((remark, i) => (
              <Fragment key={remark.id}>
                <tr>
                  <td>{i + 1}</td>
                  <td>{remark.order_id}</td>
                  <td>
                    <DateTime value={remark.create_ts} />
                  </td>
                  <td>{remark.remark_name}</td>
                  <td>
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      aria-expanded={open.has(remark.id)}
                      aria-controls={`remark-${remark.id}`}
                      onClick={() => toggle(remark.id)}
                    >
                      {open.has(remark.id) ? 'Hide' : 'Show'}
                    </Button>
                  </td>
                </tr>
                {open.has(remark.id) && (
                  <tr id={`remark-${remark.id}`}>
                    <td colSpan={5}>
                      <p className="mb-2" style={{ whiteSpace: 'pre-wrap' }}>
                        {remark.remark}
                      </p>
                      <ul className="list-inline small mb-0">
                        {FLAGS.map(([label, key]) => (
                          <li key={key} className="list-inline-item me-3">
                            {label}: <strong>{remark[key] || 'N'}</strong>
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                )}
              </Fragment>
            ))
          )}
        </tbody>
      </Table>
    </Section>
  );
}

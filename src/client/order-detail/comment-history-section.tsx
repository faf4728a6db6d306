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

/** A remark longer than this folds to its first characters, with a "more" toggle. */
export const REMARK_FOLD_CHARS = 240;

/** The remark's text, always visible; a long one folds with a more/less toggle. */
function RemarkText({ remark }: { remark: RemarkItem }) {
  const [unfolded, setUnfolded] = useState(false);
  const text = remark.remark;
  const long = text.length > REMARK_FOLD_CHARS;
  return (
    <p
      className="mb-0"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      data-testid="remark-text"
    >
      {long && !unfolded ? `${text.slice(0, REMARK_FOLD_CHARS).trimEnd()}…` : text}
      {long && (
        <Button
          variant="link"
          size="sm"
          className="p-0 ms-1 align-baseline"
          aria-expanded={unfolded}
          onClick={() => setUnfolded((v) => !v)}
        >
          {unfolded ? 'less' : 'more'}
        </Button>
      )}
    </p>
  );
}

/**
 * Remarks with their text shown on a row of its own (long ones fold), and a Show/Hide toggle revealing
 * the six flags (N when empty).
 */
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
                <tr>
                  <td colSpan={5}>
                    <RemarkText remark={remark} />
                  </td>
                </tr>
                {open.has(remark.id) && (
                  <tr id={`remark-${remark.id}`}>
                    <td colSpan={5}>
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

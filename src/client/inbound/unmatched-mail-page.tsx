import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { errorMessage } from '../transport/api';
import { DateTime } from '../components/date-time';
import { type UnmatchedItem, useAttachUnmatchedMutation, useGetUnmatchedQuery } from './unmatched-api';
import { TextField } from '../components/form-kit/form-field';
import { listApi } from '../orders/list-api';

const PAGE_SIZE = 25;

/**
 * Finds the order a stray message belongs to by the traveller's name or e-mail address (the sender's
 * address to start with); a result fills the Order ID.
 */
function FindOrder({ item, onPick }: { item: UnmatchedItem; onPick: (orderId: string) => void }) {
  const [text, setText] = useState(item.from ?? '');
  const [search, { data, isFetching, isError, error }] = listApi.endpoints.searchList.useLazyQuery();
  const ready = text.trim().length >= 3;
  return (
    <form
      className="mb-2"
      aria-label={`Find the order of message ${item.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (ready)
          void search({ folderName: 'allOrder', searchVal: text.trim(), start: 0, end: 5, query: {} });
      }}
    >
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <TextField
          id={`find-order-${item.id}`}
          label="Find the order by name or e-mail"
          labelClassName="small mb-0"
          size="sm"
          maxLength={200}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit" size="sm" variant="outline-secondary" disabled={!ready || isFetching}>
          Find
        </Button>
      </div>
      {isError && <p className="small text-danger mb-0">{errorMessage(error)}</p>}
      {data && !isFetching && (
        <ul className="list-unstyled small mt-1 mb-0" data-testid="find-order-results">
          {data.rows.length === 0 && <li className="text-body-secondary">No order matches.</li>}
          {data.rows.map((row) => (
            <li key={row.order_id}>
              <Button variant="link" size="sm" className="p-0" onClick={() => onPick(String(row.order_id))}>
                Order {row.order_id} — {row.first_name} {row.last_name} ({row.email})
              </Button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

function Message({ item }: { item: UnmatchedItem }) {
  const [orderId, setOrderId] = useState('');
  const [attach, { isLoading }] = useAttachUnmatchedMutation();
  const valid = /^[1-9]\d{0,15}$/.test(orderId.trim());
  return (
    <li className="list-group-item" data-testid="unmatched-item">
      <div className="d-flex flex-wrap gap-2 small text-body-secondary">
        <strong className="text-body">
          {item.fromName ? `${item.fromName} <${item.from ?? ''}>` : item.from}
        </strong>
        <DateTime value={item.at} />
        {item.attachments > 0 && (
          <span>{item.attachments === 1 ? '1 file' : `${item.attachments} files`}</span>
        )}
      </div>
      {item.subject && <div className="fw-semibold">{item.subject}</div>}
      <p className="mb-2" style={{ whiteSpace: 'pre-wrap' }}>
        {item.text}
      </p>
      <FindOrder item={item} onPick={setOrderId} />
      <form
        className="d-flex flex-wrap gap-2 align-items-end"
        aria-label={`Attach message ${item.id} to an order`}
        onSubmit={async (e) => {
          e.preventDefault();
          if (!valid) return;
          const result = await attach({ messageId: item.id, orderId: Number(orderId.trim()) });
          if ('error' in result) toast.error(errorMessage(result.error));
          else toast.success(result.data.message);
        }}
      >
        <TextField
          id={`attach-order-${item.id}`}
          label="Order ID"
          labelClassName="small mb-0"
          size="sm"
          inputMode="numeric"
          maxLength={16}
          value={orderId}
          onChange={(e) => setOrderId(e.target.value)}
        />
        <Button type="submit" size="sm" disabled={!valid || isLoading}>
          Attach to order
        </Button>
      </form>
    </li>
  );
}

/** /admin/unmatched-mail: mail that matched no order, newest first, each attachable to an order. */
export function Component() {
  const [page, setPage] = useState(1);
  const { data, isLoading, isError, error } = useGetUnmatchedQuery({ page, size: PAGE_SIZE });
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;
  return (
    <section>
      <div className="d-flex align-items-center gap-2 mb-3">
        <h1 className="h5 mb-0 me-auto">Unmatched Mail</h1>
        {data && (
          <span className="badge rounded-pill text-bg-secondary" data-testid="unmatched-total">
            {data.total}
          </span>
        )}
      </div>
      {isLoading ? (
        <p className="text-muted">Loading…</p>
      ) : isError ? (
        <p className="text-danger">{errorMessage(error)}</p>
      ) : !data?.items.length ? (
        <p className="text-muted">No unmatched mail.</p>
      ) : (
        <ul className="list-group">
          {data.items.map((item) => (
            <Message key={item.id} item={item} />
          ))}
        </ul>
      )}
      {pages > 1 && (
        <div className="d-flex gap-2 mt-2 align-items-center">
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Previous
          </Button>
          <span className="small">
            Page {page} of {pages}
          </span>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </Button>
        </div>
      )}
    </section>
  );
}

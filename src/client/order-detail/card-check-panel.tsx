import { useState } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { CardField, CardFieldResult } from '../../shared/contracts/card-check';
import { encodeOrderId } from '../../shared/order-id';
import { can } from '../../shared/permissions';
import { TextareaField } from '../components/form-kit/form-field';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { useCardCheckQuery, useReleaseCardMutation, useSendArrivedCardMutation } from './card-check-api';

const FIELD_LABELS: Record<CardField, string> = {
  surname: 'Surname',
  given_names: 'Given names',
  passport_number: 'Passport number',
  date_of_birth: 'Date of birth',
  arrival_date: 'Arrival date',
  flight_number: 'Flight',
  reference: 'ED card reference',
};

const STATUS_CLASS: Record<CardFieldResult['status'], string> = {
  match: 'text-success',
  mismatch: 'text-danger fw-semibold',
  absent: 'text-secondary',
};

const STATUS_WORD: Record<CardFieldResult['status'], string> = {
  match: 'matches',
  mismatch: 'differs',
  absent: 'not found',
};

/**
 * The card check beside the card (docs/product.md, "Card check"): each field found on the card, green
 * when it matches the order, red when it differs, grey when the card does not show it; a blocked card
 * can be released by a Manager or Admin with a reason. A card the government mailed and nobody sent yet
 * (card_arrived_unsent) is sent with one click when its check lets it go.
 */
export function CardCheckPanel({
  orderId,
  arrivedUnsent = false,
  version,
}: {
  orderId: number;
  arrivedUnsent?: boolean;
  version?: number;
}) {
  const { data } = useCardCheckQuery(orderId);
  const [release, { isLoading }] = useReleaseCardMutation();
  const [sendArrived, { isLoading: sending }] = useSendArrivedCardMutation();
  const [reason, setReason] = useState('');
  const check = data?.cardCheck;
  if (!check) return null;
  const role = sessionUser()?.type ?? null;
  const run = async () => {
    try {
      const res = await release({ orderId, reason: reason.trim() }).unwrap();
      toast.success(res.message);
      setReason('');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const sendCard = async () => {
    if (version === undefined) return;
    try {
      const res = await sendArrived({ orderId, expectedVersion: version }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <div className="mt-3 border rounded p-2" data-testid="card-check">
      <div className="fw-semibold mb-1">
        Card check:{' '}
        {check.running
          ? 'still reading the card…'
          : check.blocked
            ? 'blocked — the card is not sent'
            : check.result === 'unread'
              ? 'nothing could be read from the card (check it by eye)'
              : check.release
                ? 'released'
                : 'matches the order'}
      </div>
      {check.duplicateOf !== null && (
        <div className="text-danger small mb-1">
          The same file is the card of order{' '}
          <Link to={`/admin/view-order/${encodeOrderId(check.duplicateOf)}`}>{check.duplicateOf}</Link>.
        </div>
      )}
      {check.fields.length > 0 && (
        <table className="table table-sm small mb-1">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">On the card</th>
              <th scope="col">In the order</th>
            </tr>
          </thead>
          <tbody>
            {check.fields.map((f) => (
              <tr key={f.field} data-field={f.field} data-status={f.status}>
                <td>{FIELD_LABELS[f.field]}</td>
                <td className={STATUS_CLASS[f.status]}>
                  {f.found ?? '—'} <span className="visually-hidden">({STATUS_WORD[f.status]})</span>
                </td>
                <td>{f.expected ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {check.release && (
        <div className="small text-muted">
          Released by {check.release.by ?? 'someone'}: {check.release.reason}
        </div>
      )}
      {arrivedUnsent && !check.blocked && !check.running && can(role, 'orders.documents') && (
        <div className="mt-2">
          <div className="small mb-1">
            The government mailed this card; it has not been sent to the customer.
          </div>
          <Button size="sm" variant="success" disabled={sending || version === undefined} onClick={sendCard}>
            Send the card and complete
          </Button>
        </div>
      )}
      {check.blocked && can(role, 'orders.releaseCard') && (
        <div className="mt-2">
          <TextareaField
            id="card-release-reason"
            label="Release this card anyway — reason"
            rows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <Button
            className="mt-1"
            size="sm"
            variant="warning"
            disabled={isLoading || reason.trim().length < 3}
            onClick={run}
          >
            Release the card
          </Button>
        </div>
      )}
    </div>
  );
}

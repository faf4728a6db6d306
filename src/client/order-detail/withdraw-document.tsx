import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify';
import type { OrderDetails, UploadDocItem } from '../../shared/contracts/order-detail';
import { DateTime } from '../components/date-time';
import { errorMessage } from '../transport/api';
import { useWithdrawDocumentMutation } from './order-detail-api';
import { TextareaField } from '../components/form-kit/form-field';

/** Asks why a wrongly uploaded document is withdrawn (Admin, Manager); the previous upload becomes current. */
export function WithdrawDialog({
  order,
  doc,
  onClose,
}: {
  order: OrderDetails;
  doc: UploadDocItem | null;
  onClose: () => void;
}) {
  const [withdraw, { isLoading }] = useWithdrawDocumentMutation();
  const [reason, setReason] = useState('');
  const tooShort = reason.trim().length < 3;
  const run = async () => {
    if (!doc) return;
    try {
      const res = await withdraw({
        documentId: doc.id,
        orderId: order.order_id,
        reason: reason.trim(),
      }).unwrap();
      toast.success(res.message);
      setReason('');
      onClose();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Modal show={doc !== null} onHide={onClose} centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5">
          Withdraw {doc?.file1}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small">
          The document stays on record but is never served or mailed again. The customer gets the previous
          upload, if there is one.
        </p>
        <TextareaField
          id="withdraw-reason"
          label="Reason"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose} disabled={isLoading}>
          Cancel
        </Button>
        <Button variant="danger" onClick={run} disabled={isLoading || tooShort}>
          Withdraw
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Earlier uploads: superseded ones, and withdrawn ones with their reason, kept visible to staff. */
export function EarlierDocuments({ order }: { order: OrderDetails }) {
  const earlier = order.uploadDoc.filter((d) => !d.current);
  if (!earlier.length) return null;
  return (
    <details className="mt-2 small">
      <summary>Earlier uploads ({earlier.length})</summary>
      <ul className="mb-0">
        {earlier.map((d) => (
          <li key={d.id}>
            {d.file1} — <DateTime value={d.create_ts} />
            {d.withdrawn_at ? ` — withdrawn: ${d.withdraw_reason ?? ''}` : ' — superseded'}
          </li>
        ))}
      </ul>
    </details>
  );
}

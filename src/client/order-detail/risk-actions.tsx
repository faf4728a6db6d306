import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { can } from '../../shared/permissions';
import { TextField } from '../components/form-kit/form-field';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { useClearRiskHoldMutation, useKeepPaymentMutation, useRefundOnWarningMutation } from './risk-api';

/**
 * Under a fraud warning or a risk hold (docs/product.md, "Fraud warnings and risk"): "Refund now" or
 * "Keep (reason)", and "Clear hold (reason)", for Admin and Manager (the server decides again).
 */
export function RiskActions({ order, code }: { order: OrderDetails; code: string }) {
  const [asking, setAsking] = useState<'keep' | 'clear' | null>(null);
  const [reason, setReason] = useState('');
  const [refund, refunding] = useRefundOnWarningMutation();
  const [keep, keeping] = useKeepPaymentMutation();
  const [clear, clearing] = useClearRiskHoldMutation();
  if (!can(sessionUser()?.type ?? null, 'payments.risk')) return null;
  const busy = refunding.isLoading || keeping.isLoading || clearing.isLoading;
  const run = async (action: () => Promise<{ message: string }>) => {
    try {
      toast.success((await action()).message);
      setAsking(null);
      setReason('');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const orderId = order.order_id;
  return (
    <span className="d-inline-flex flex-wrap gap-2 ms-2 align-items-end">
      {code === 'fraud_warning' && (
        <>
          <Button
            size="sm"
            variant="danger"
            disabled={busy}
            onClick={() => void run(() => refund({ orderId }).unwrap())}
          >
            Refund now
          </Button>
          <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => setAsking('keep')}>
            Keep (reason)
          </Button>
        </>
      )}
      {code === 'risk_hold' && (
        <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => setAsking('clear')}>
          Clear hold (reason)
        </Button>
      )}
      {asking && (
        <>
          <TextField
            id={`risk-reason-${orderId}-${asking}`}
            label={asking === 'keep' ? 'Why keep the payment' : 'Why clear the hold'}
            labelClassName="small mb-0"
            size="sm"
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Button
            size="sm"
            variant="primary"
            disabled={busy || reason.trim().length < 3}
            onClick={() =>
              void run(() =>
                asking === 'keep'
                  ? keep({ orderId, reason: reason.trim() }).unwrap()
                  : clear({ orderId, reason: reason.trim() }).unwrap(),
              )
            }
          >
            Save
          </Button>
        </>
      )}
    </span>
  );
}

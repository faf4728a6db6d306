import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import type { ScanField } from '../../shared/contracts/card-check';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import { usePassportScanQuery, useTakeScanValueMutation } from './card-check-api';

const LABELS: Record<ScanField, string> = {
  passport_number: 'Passport number',
  last_name: 'Last name',
  first_name: 'First name',
  nationality: 'Nationality',
  date_of_birth: 'Date of birth',
  passport_expiration: 'Passport expiration',
};

/**
 * The passport scan's values (its machine-readable zone) against the order's; a differing value is one
 * click away from the order (a correction, docs/product.md "Passport scan").
 */
export function PassportScanPanel({ order }: { order: OrderDetails }) {
  const { data } = usePassportScanQuery(order.order_id);
  const [take, { isLoading }] = useTakeScanValueMutation();
  const scan = data?.passportScan;
  if (!scan) return null;
  const mayCorrect = can(sessionUser()?.type ?? null, 'orders.correct');
  const run = async (field: ScanField) => {
    try {
      const res = await take({ orderId: order.order_id, field, expectedVersion: order.version }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <div className="mt-3 border rounded p-2" data-testid="passport-scan">
      <div className="fw-semibold mb-1">
        Passport scan:{' '}
        {scan.status === 'read' ? 'machine-readable zone read' : (scan.reason ?? 'not readable')}
      </div>
      {scan.fields.length > 0 && (
        <table className="table table-sm small mb-0">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Scan</th>
              <th scope="col">Order</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {scan.fields.map((f) => (
              <tr key={f.field} data-field={f.field} data-differs={f.differs}>
                <td>{LABELS[f.field]}</td>
                <td className={f.differs ? 'text-danger fw-semibold' : 'text-success'}>{f.scan ?? '—'}</td>
                <td>{f.order ?? '—'}</td>
                <td>
                  {f.differs && mayCorrect && f.scan && (
                    <Button
                      size="sm"
                      variant="outline-primary"
                      disabled={isLoading}
                      onClick={() => run(f.field)}
                    >
                      Use the scan's value
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

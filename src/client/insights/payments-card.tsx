import Card from 'react-bootstrap/Card';
import type { PaymentInsights } from '../../shared/contracts/payments';
import { column, DataTable } from '../components/list-kit/data-table';

type Amounts = PaymentInsights['disputes']['amounts'][number];
type RefundAmounts = PaymentInsights['refunds']['amounts'][number];
interface CurrencyRow {
  currency: string;
  d: Amounts | undefined;
  r: RefundAmounts | undefined;
}

const AMOUNT_COLUMNS = [
  column<CurrencyRow>('Currency', (a) => a.currency),
  column<CurrencyRow>('Disputed', (a) => a.d?.disputed ?? '-'),
  column<CurrencyRow>('Lost', (a) => a.d?.lost ?? '-'),
  column<CurrencyRow>('Refunded', (a) => a.r?.refunded ?? '-'),
];

/**
 * Disputes at the payment providers in the period (opened; won and lost by closing day; amounts per
 * currency) and refunds made through them (by the product, or outside it and reported by the provider).
 */
export function PaymentsCard({ payments }: { payments: PaymentInsights }) {
  const { disputes, refunds } = payments;
  return (
    <Card
      className="mb-3 shadow-sm"
      as="section"
      aria-labelledby="insights-payments"
      data-testid="insights-payments"
    >
      <Card.Header>
        <h2 id="insights-payments" className="h6 mb-0">
          Disputes and refunds at the payment provider
        </h2>
      </Card.Header>
      <Card.Body>
        <div className="row g-2 mb-2 small">
          <div className="col-6 col-md-2">
            Disputes opened <div className="fs-5 fw-semibold">{disputes.opened}</div>
          </div>
          <div className="col-6 col-md-2">
            Won <div className="fs-5 fw-semibold">{disputes.won}</div>
          </div>
          <div className="col-6 col-md-2">
            Lost <div className="fs-5 fw-semibold">{disputes.lost}</div>
          </div>
          <div className="col-6 col-md-2">
            Refunds through the provider <div className="fs-5 fw-semibold">{refunds.throughProvider}</div>
          </div>
          <div className="col-6 col-md-2">
            Refunded outside the product <div className="fs-5 fw-semibold">{refunds.outside}</div>
          </div>
          <div className="col-6 col-md-2">
            Refunds that failed <div className="fs-5 fw-semibold">{refunds.failed}</div>
          </div>
        </div>
        {disputes.amounts.length || refunds.amounts.length ? (
          <DataTable
            rows={[...new Set([...disputes.amounts, ...refunds.amounts].map((a) => a.currency))]
              .sort()
              .map((currency) => ({
                currency,
                d: disputes.amounts.find((a) => a.currency === currency),
                r: refunds.amounts.find((a) => a.currency === currency),
              }))}
            columns={AMOUNT_COLUMNS}
            rowId={(a) => a.currency}
            className="table table-sm mb-0 small"
            wrapClassName="table-responsive"
            empty={null}
          />
        ) : null}
      </Card.Body>
    </Card>
  );
}

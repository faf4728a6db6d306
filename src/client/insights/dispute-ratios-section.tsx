import { lazy, Suspense, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import type { DisputeBand } from '../../shared/contracts/payment-risk';
import { can } from '../../shared/permissions';
import { useSessionUser } from '../auth/use-session-user';
import { CheckboxField, TextField } from '../components/form-kit/form-field';
import { useGetPaymentPolicyQuery, useSavePaymentPolicyMutation } from '../order-detail/risk-api';
import { errorMessage } from '../transport/api';
import { useGetDisputesQuery } from './insights-api';

const InsightsChart = lazy(() => import('./insights-chart'));

const BAND_BG: Record<DisputeBand, string> = { ok: 'success', watch: 'warning', excessive: 'danger' };

export function BandBadge({ band }: { band: DisputeBand }) {
  return (
    <Badge bg={BAND_BG[band]} text={band === 'watch' ? 'dark' : undefined} data-testid="dispute-band">
      {band}
    </Badge>
  );
}

export const pct = (v: number | null) => (v === null ? '–' : `${v} %`);
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The ratios the card networks watch (docs/product.md, "Dispute ratios"): this month per network, the
 * 12 months as a chart with the bands drawn, and the payment policy (an Admin changes it).
 */
export function DisputeRatiosSection() {
  const role = useSessionUser()?.type ?? null;
  const { data, isLoading } = useGetDisputesQuery(undefined, { skip: !can(role, 'payments.insights') });
  if (!can(role, 'payments.insights')) return null;
  return (
    <Card className="mb-3 shadow-sm" as="section" aria-labelledby="insights-disputes">
      <Card.Header className="d-flex align-items-center gap-2">
        <h2 className="h6 mb-0" id="insights-disputes">
          Dispute ratios {data ? `(${data.month})` : ''}
        </h2>
        {data ? <BandBadge band={data.band} /> : null}
      </Card.Header>
      <Card.Body>
        {isLoading || !data ? (
          <p className="small text-body-secondary mb-0">Loading…</p>
        ) : (
          <>
            <Suspense fallback={null}>
              <InsightsChart
                spec={{
                  title: 'Dispute ratios per month (all networks), with the bands',
                  type: 'line',
                  percentValues: true,
                  labels: data.history.map((h) => h.month),
                  datasets: [
                    { label: 'Visa-style', data: data.history.map((h) => h.visaRatio), color: '#1a56db' },
                    {
                      label: 'Mastercard-style',
                      data: data.history.map((h) => h.mastercardRatio),
                      color: '#e3a008',
                    },
                    {
                      label: `Watch (${data.watchPercent} %)`,
                      data: data.history.map(() => data.watchPercent),
                      color: '#d97706',
                      dashed: true,
                    },
                    {
                      label: `Excessive (${data.excessivePercent} %)`,
                      data: data.history.map(() => data.excessivePercent),
                      color: '#dc2626',
                      dashed: true,
                    },
                  ],
                }}
              />
            </Suspense>
            <Table size="sm" responsive className="mb-2">
              <thead>
                <tr>
                  <th>Network</th>
                  <th>Settled</th>
                  <th>Disputes</th>
                  <th>Warnings</th>
                  <th>Won / lost</th>
                  <th>Fees</th>
                  <th>Visa-style</th>
                  <th>Mastercard-style</th>
                </tr>
              </thead>
              <tbody>
                {[...data.networks, data.total].map((n) => (
                  <tr key={n.network} data-testid={`disputes-${n.network}`}>
                    <td>{n.network}</td>
                    <td>
                      {n.settledCount} ({money(n.settledCents)})
                    </td>
                    <td>
                      {n.disputeCount} ({money(n.disputeCents)})
                    </td>
                    <td>{n.fraudWarnings}</td>
                    <td>
                      {n.won} / {n.lost}
                    </td>
                    <td>{money(n.feeCents)}</td>
                    <td>
                      {pct(n.visaRatio)} <BandBadge band={n.visaBand} />
                    </td>
                    <td>
                      {pct(n.mastercardRatio)} <BandBadge band={n.mastercardBand} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </>
        )}
        <PolicyForm />
      </Card.Body>
    </Card>
  );
}

/** The payment policy: everyone here reads it, an Admin changes it. */
function PolicyForm() {
  const role = useSessionUser()?.type ?? null;
  const { data } = useGetPaymentPolicyQuery();
  const [save, saving] = useSavePaymentPolicyMutation();
  const [draft, setDraft] = useState<{ watch: string; excessive: string } | null>(null);
  if (!data) return null;
  const mayWrite = can(role, 'payments.policyWrite');
  const watch = draft?.watch ?? String(data.disputeWatchPercent);
  const excessive = draft?.excessive ?? String(data.disputeExcessivePercent);
  const run = async (body: Parameters<typeof save>[0]) => {
    try {
      toast.success((await save(body).unwrap()).message);
      setDraft(null);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <form
      className="d-flex flex-wrap align-items-end gap-2"
      aria-label="Payment policy"
      onSubmit={(e) => {
        e.preventDefault();
        void run({ disputeWatchPercent: Number(watch), disputeExcessivePercent: Number(excessive) });
      }}
    >
      <CheckboxField
        asSwitch
        id="policy-auto-refund"
        className="small align-self-center"
        label="Refund orders not yet submitted on an early fraud warning"
        checked={data.autoRefundFraudWarnings}
        disabled={!mayWrite || saving.isLoading}
        onChange={(e) => void run({ autoRefundFraudWarnings: e.currentTarget.checked })}
      />
      <TextField
        id="policy-watch"
        label="Watch from (%)"
        labelClassName="small mb-0"
        size="sm"
        type="number"
        step="0.001"
        style={{ maxWidth: 130 }}
        value={watch}
        disabled={!mayWrite}
        onChange={(e) => setDraft({ watch: e.currentTarget.value, excessive })}
      />
      <TextField
        id="policy-excessive"
        label="Excessive from (%)"
        labelClassName="small mb-0"
        size="sm"
        type="number"
        step="0.001"
        style={{ maxWidth: 130 }}
        value={excessive}
        disabled={!mayWrite}
        onChange={(e) => setDraft({ watch, excessive: e.currentTarget.value })}
      />
      {mayWrite ? (
        <Button type="submit" size="sm" disabled={saving.isLoading || !draft}>
          Save bands
        </Button>
      ) : null}
    </form>
  );
}

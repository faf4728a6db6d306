import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useSearchParams } from 'react-router';
import { formatStaffDate, serviceToday } from '../../shared/dates';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { DateField } from '../components/form-kit/date-field';
import { useSessionUser } from '../auth/use-session-user';
import { useGetInsightsQuery } from './insights-api';
import { Dashboard } from './insights-dashboard';
import { type Period, PRESETS, type Preset, presetPeriod, previousPeriod, validPeriod } from './periods';
import { DisputeRatiosSection } from './dispute-ratios-section';
import { RatingsCard } from './ratings-card';

/** Period in the URL: ?preset=7d, or ?preset=custom&from&to, so a dashboard link is shareable. */
function usePeriod() {
  const [params, setParams] = useSearchParams();
  const today = serviceToday();
  const preset = (PRESETS.find((p) => p.key === params.get('preset'))?.key ?? '30d') as Preset;
  const custom = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const period: Period | null =
    preset === 'custom' ? (validPeriod(custom) ? custom : null) : presetPeriod(preset, today);
  const choose = (next: Preset, range?: Period) =>
    setParams(next === 'custom' && range ? { preset: next, ...range } : { preset: next }, { replace: false });
  return { preset, period, custom, choose };
}

/** /admin/insights: the numbers that run the processing team (Admin, Manager). */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const allowed = can(role, 'insights.read');
  const { preset, period, custom, choose } = usePeriod();
  const [draft, setDraft] = useState<Period>(custom);
  const current = useGetInsightsQuery(period ?? { from: '', to: '' }, { skip: !allowed || !period });
  const prev = useGetInsightsQuery(period ? previousPeriod(period) : { from: '', to: '' }, {
    skip: !allowed || !period,
  });

  if (!allowed) return <Alert variant="warning">You do not have permission to view the insights.</Alert>;
  return (
    <div>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        <h1 className="h4 mb-0 me-auto">Insights</h1>
        <ButtonGroup aria-label="Period">
          {PRESETS.map((p) => (
            <Button
              key={p.key}
              variant={preset === p.key ? 'primary' : 'outline-primary'}
              aria-pressed={preset === p.key}
              onClick={() => (p.key === 'custom' ? choose('custom', period ?? draft) : choose(p.key))}
            >
              {p.label}
            </Button>
          ))}
        </ButtonGroup>
      </div>
      {preset === 'custom' ? (
        <form
          className="d-flex flex-wrap align-items-end gap-2 mb-3"
          aria-label="Custom period"
          onSubmit={(e) => {
            e.preventDefault();
            choose('custom', draft);
          }}
        >
          <DateField
            id="insights-from"
            label="From"
            labelClassName="small mb-0"
            value={draft.from}
            onChange={(v) => setDraft((d) => ({ ...d, from: v }))}
          />
          <DateField
            id="insights-to"
            label="To"
            labelClassName="small mb-0"
            value={draft.to}
            onChange={(v) => setDraft((d) => ({ ...d, to: v }))}
          />
          <Button type="submit">Apply</Button>
          {!period ? (
            <span className="text-danger small">Choose a From and a To date, at most 366 days apart.</span>
          ) : null}
        </form>
      ) : null}
      {period ? (
        <p className="small text-body-secondary" data-testid="insights-period">
          {formatStaffDate(period.from)} – {formatStaffDate(period.to)} (service time zone), compared with{' '}
          {formatStaffDate(previousPeriod(period).from)} – {formatStaffDate(previousPeriod(period).to)}
        </p>
      ) : null}
      {current.error ? <Alert variant="danger">{errorMessage(current.error)}</Alert> : null}
      {current.isFetching && !current.currentData ? (
        <Spinner animation="border" role="status" aria-label="Loading" />
      ) : null}
      {current.currentData && period ? (
        <Dashboard data={current.currentData} previous={prev.currentData} period={period} />
      ) : null}
      <DisputeRatiosSection />
      <RatingsCard />
    </div>
  );
}

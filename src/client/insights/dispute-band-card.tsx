import { can } from '../../shared/permissions';
import { useSessionUser } from '../auth/use-session-user';
import { BandBadge, pct } from './dispute-ratios-section';
import { useGetDisputesQuery } from './insights-api';

/** The dashboard's line for Admin and Manager: this month's dispute band. */
export function DisputeBandCard() {
  const role = useSessionUser()?.type ?? null;
  const allowed = can(role, 'payments.insights');
  const { data } = useGetDisputesQuery(undefined, { skip: !allowed });
  if (!allowed || !data) return null;
  return (
    <p className="small mb-2" data-testid="dashboard-dispute-band">
      Dispute ratio this month ({data.month}): <BandBadge band={data.band} /> Visa-style{' '}
      {pct(data.total.visaRatio)}, Mastercard-style {pct(data.total.mastercardRatio)}
    </p>
  );
}

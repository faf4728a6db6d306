import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import { gatewaySettingBody } from '../../shared/contracts/gateways';
import { can } from '../../shared/permissions';
import { DateTime } from '../components/date-time';
import { errorMessage } from '../transport/api';
import { useGetGatewayChangesQuery } from '../audit/audit-api';
import { useSessionUser } from '../auth/use-session-user';
import { ConfirmDialog } from '../components/confirm-dialog';
import { SelectField } from '../components/form-kit/form-field';
import { useZodForm } from '../components/form-kit/use-zod-form';
import { useGetPaymentGatewaysQuery, useSetActiveGatewayMutation } from './gateways-api';

export const GATEWAY_READ_ONLY_NOTICE = 'Only an Admin or a Manager can change the active payment gateway.';
export const GATEWAY_NO_ACCESS_NOTICE = 'You do not have permission to view the payment gateways.';

/** The confirmation before a switch: every new payment goes through the gateway chosen. */
export const switchQuestion = (from: string, to: string) =>
  `Switch the active gateway from ${from} to ${to} for all new payments?`;

/** /admin/gateway-setting (Gateway Setting): a select and 'Active Gateway'. */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const canRead = can(role, 'gateways.read');
  const canWrite = can(role, 'gateways.write');
  const { data: gateways, isLoading } = useGetPaymentGatewaysQuery(undefined, { skip: !canRead });
  const [activate, { isLoading: saving }] = useSetActiveGatewayMutation();
  const active = gateways?.find((g) => g.is_active === '1');
  const { data: changes } = useGetGatewayChangesQuery(undefined, { skip: !canRead });
  const [pending, setPending] = useState<{ id: string; name: string } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useZodForm(gatewaySettingBody, { defaultValues: { gatewayId: '' } });

  // The select starts on the gateway that is active now.
  useEffect(() => {
    if (active) reset({ gatewayId: String(active.id) });
  }, [active, reset]);

  const onSubmit = handleSubmit(({ gatewayId }) => {
    const target = gateways?.find((g) => String(g.id) === String(gatewayId));
    if (active && target && active.id === target.id) {
      toast.info(`${target.gateway_name} is already the active gateway.`);
      return;
    }
    setPending({ id: String(gatewayId), name: target?.gateway_name ?? String(gatewayId) });
  });

  const confirmSwitch = async () => {
    if (!pending) return;
    try {
      const res = await activate({ gatewayId: pending.id }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  if (!canRead) return <Alert variant="warning">{GATEWAY_NO_ACCESS_NOTICE}</Alert>;
  return (
    <Card className="shadow-sm" style={{ maxWidth: 560 }}>
      <Card.Header as="h1" className="h5 mb-0">
        Change Gateway
      </Card.Header>
      <Card.Body>
        {!canWrite ? <Alert variant="info">{GATEWAY_READ_ONLY_NOTICE}</Alert> : null}
        <p className="mb-3">
          Active gateway:{' '}
          <strong data-testid="active-gateway">{active?.gateway_name ?? (isLoading ? '…' : 'none')}</strong>
        </p>
        <form noValidate onSubmit={onSubmit} aria-label="Change gateway">
          <SelectField
            id="gatewayId"
            className="mb-3"
            label="Payment Gateway"
            error={errors.gatewayId?.message}
            {...register('gatewayId')}
            disabled={!canWrite}
          >
            <option value="">Select gateway</option>
            {(gateways ?? []).map((g) => (
              <option key={g.id} value={String(g.id)}>
                {g.gateway_name}
              </option>
            ))}
          </SelectField>
          {canWrite ? (
            <Button type="submit" disabled={saving}>
              Active Gateway
            </Button>
          ) : null}
        </form>
        <h2 className="h6 mt-4">Last changes</h2>
        {changes && changes.length > 0 ? (
          <ul className="list-unstyled small mb-0" data-testid="gateway-changes">
            {changes.map((c) => (
              <li key={c.createdAt + (c.actorEmail ?? '')} className="mb-1">
                <strong>{c.actorName ?? c.actorEmail ?? 'Unknown'}</strong> switched{' '}
                {c.from.length ? c.from.join(', ') : 'none'} → {c.to.join(', ')} on{' '}
                <DateTime value={c.createdAt} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="small text-body-secondary mb-0">No switches recorded yet.</p>
        )}
      </Card.Body>
      <ConfirmDialog
        show={!!pending}
        message={pending ? switchQuestion(active?.gateway_name ?? 'none', pending.name) : ''}
        onYes={confirmSwitch}
        onNo={() => setPending(null)}
        busy={saving}
      />
    </Card>
  );
}

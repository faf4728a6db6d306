import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import type { z } from 'zod';
import { gatewaySettingBody } from '../../shared/contracts/gateways';
import { can } from '../../shared/permissions';
import { errorMessage } from '../app/api';
import { useSessionUser } from '../auth/use-session-user';
import { useGetPaymentGatewaysQuery, useSetActiveGatewayMutation } from './gateways-api';

export const GATEWAY_READ_ONLY_NOTICE = 'Only an Admin or a Manager can change the active payment gateway.';
export const GATEWAY_NO_ACCESS_NOTICE = 'You do not have permission to view the payment gateways.';

type FormInput = z.input<typeof gatewaySettingBody>;
type FormOutput = z.output<typeof gatewaySettingBody>;

/** /admin/gateway-setting (spec §2 Change Gateway): a select and 'Active Gateway'. */
export function Component() {
  const role = useSessionUser()?.type ?? null;
  const canRead = can(role, 'gateways.read');
  const canWrite = can(role, 'gateways.write');
  const { data: gateways, isLoading } = useGetPaymentGatewaysQuery(undefined, { skip: !canRead });
  const [activate, { isLoading: saving }] = useSetActiveGatewayMutation();
  const active = gateways?.find((g) => g.is_active === '1');
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(gatewaySettingBody),
    defaultValues: { gatewayId: '' },
  });

  // The select starts on the gateway that is active now.
  useEffect(() => {
    if (active) reset({ gatewayId: String(active.id) });
  }, [active, reset]);

  const onSubmit = handleSubmit(async ({ gatewayId }) => {
    try {
      const res = await activate({ gatewayId }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  });

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
        <Form noValidate onSubmit={onSubmit} aria-label="Change gateway">
          <Form.Group controlId="gatewayId" className="mb-3">
            <Form.Label>Payment Gateway</Form.Label>
            <Form.Select {...register('gatewayId')} isInvalid={!!errors.gatewayId} disabled={!canWrite}>
              <option value="">Select gateway</option>
              {(gateways ?? []).map((g) => (
                <option key={g.id} value={String(g.id)}>
                  {g.gateway_name}
                </option>
              ))}
            </Form.Select>
            <Form.Control.Feedback type="invalid">{errors.gatewayId?.message}</Form.Control.Feedback>
          </Form.Group>
          {canWrite ? (
            <Button type="submit" disabled={saving}>
              Active Gateway
            </Button>
          ) : null}
        </Form>
      </Card.Body>
    </Card>
  );
}

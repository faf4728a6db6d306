import { z } from 'zod';
import { MSG } from '../messages.js';
import { idField } from './team.js';

export const GATEWAY_MSG = {
  notFound: 'Payment gateway not found.',
  activated: (name: string) => `${name} is now the active payment gateway.`,
} as const;

/** A payment gateway as clients read it: is_active is the string "1" for the active one, else "0". */
export const paymentGateway = z.object({
  id: z.number(),
  gateway_name: z.string(),
  is_active: z.enum(['1', '0']),
});
export type PaymentGateway = z.infer<typeof paymentGateway>;

/** POST /api/admin/payment-gateway-setting and the Gateway Setting form. */
export const gatewaySettingBody = z.object({ gatewayId: idField(MSG.gatewayRequired) });
export type GatewaySettingBody = z.input<typeof gatewaySettingBody>;

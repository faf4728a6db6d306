import type { GatewaySettingBody, PaymentGateway } from '../../shared/contracts/gateways';
import { type Envelope, api } from '../transport/api';

/** Gateway Setting calls. */
export const gatewaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPaymentGateways: build.query<PaymentGateway[], void>({
      query: () => ({ url: 'admin/payment-gateways' }),
      providesTags: ['Gateways'],
    }),
    setActiveGateway: build.mutation<Envelope, GatewaySettingBody>({
      query: (body) => ({ url: 'admin/payment-gateway-setting', method: 'POST', body }),
      invalidatesTags: ['Gateways'],
    }),
  }),
});

export const { useGetPaymentGatewaysQuery, useSetActiveGatewayMutation } = gatewaysApi;

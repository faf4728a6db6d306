import type { Envelope } from '../transport/api';
import { orderDetailApi } from '../order-detail/order-detail-api';
import { ordersApi } from '../orders/orders-api';
import { reportConflict } from './live-bus';

/**
 * Every change of one order that the server refuses with 409 (a stale version, or someone else holds
 * the order) is reported to the detail page, which explains it with Reload (and Take over). Added to the
 * existing calls from here, so the API modules stay as they are.
 */
function watch(endpoint: string) {
  return {
    async onQueryStarted(arg: unknown, { queryFulfilled }: { queryFulfilled: Promise<unknown> }) {
      try {
        await queryFulfilled;
      } catch (failure) {
        const error = (failure as { error?: { status?: unknown; data?: Envelope } }).error;
        if (error?.status === 409) reportConflict(endpoint, arg, error.data?.message ?? 'Refused');
      }
    },
  };
}

orderDetailApi.enhanceEndpoints({
  endpoints: {
    moveOrderStatus: watch('moveOrderStatus'),
    addNewRemark: watch('addNewRemark'),
    resendMail: watch('resendMail'),
    saveTransactionDetails: watch('saveTransactionDetails'),
  },
});
ordersApi.enhanceEndpoints({ endpoints: { assignOrders: watch('assignOrders') } });

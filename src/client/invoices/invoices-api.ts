import type { SendInvoiceBody } from '../../shared/contracts/order-detail';
import { api, type Envelope } from '../transport/api';

/** Send Invoice (send-invoice): a PDF invoice mailed to the order's e-mail. */
export const invoicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendInvoice: build.mutation<Envelope, SendInvoiceBody>({
      query: (body) => ({ url: 'admin/send-invoice', method: 'POST', body }),
      // The mail lands in the order's history.
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [{ type: 'Order', id: Number(orderId) }]),
    }),
  }),
});

export const { useSendInvoiceMutation } = invoicesApi;

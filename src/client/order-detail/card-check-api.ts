import type { CardCheck, PassportScan, ScanField } from '../../shared/contracts/card-check';
import { api, type Envelope } from '../transport/api';

const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

/** The card check of the order's current card, and a Manager's or Admin's release of a blocked card. */
export const cardCheckApi = api.injectEndpoints({
  endpoints: (build) => ({
    cardCheck: build.query<{ cardCheck: CardCheck | null }, number>({
      query: (orderId) => `admin/orders/${orderId}/card-check`,
      providesTags: (_r, _e, orderId) => orderTag(orderId),
    }),
    releaseCard: build.mutation<
      Envelope<{ cardCheck: CardCheck | null }>,
      { orderId: number; reason: string }
    >({
      query: ({ orderId, reason }) => ({
        url: `admin/orders/${orderId}/card-check/release`,
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    sendArrivedCard: build.mutation<
      Envelope<{ mailId: number; documentId: number | null; status: string }>,
      { orderId: number; expectedVersion: number }
    >({
      query: ({ orderId, expectedVersion }) => ({
        url: `admin/orders/${orderId}/send-arrived-card`,
        method: 'POST',
        body: { expectedVersion },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    passportScan: build.query<{ passportScan: PassportScan | null }, number>({
      query: (orderId) => `admin/orders/${orderId}/passport-scan`,
      providesTags: (_r, _e, orderId) => orderTag(orderId),
    }),
    takeScanValue: build.mutation<
      Envelope<{ passportScan: PassportScan | null }>,
      { orderId: number; field: ScanField; expectedVersion: number }
    >({
      query: ({ orderId, field, expectedVersion }) => ({
        url: `admin/orders/${orderId}/passport-scan/take`,
        method: 'POST',
        body: { field, expectedVersion },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
  }),
});

export const {
  useCardCheckQuery,
  useReleaseCardMutation,
  useSendArrivedCardMutation,
  usePassportScanQuery,
  useTakeScanValueMutation,
} = cardCheckApi;

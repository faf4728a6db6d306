import type { MailProvider, OrderStatus } from '../../shared/constants';
import type { ConversationItem } from '../../shared/contracts/conversation';
import { api, type Envelope } from '../transport/api';

const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

export interface Conversation {
  orderId: number;
  items: ConversationItem[];
  failingAddress: boolean;
}

/** The order's conversation; any change of the order (a live event too) reads it again. */
export const conversationApi = api.injectEndpoints({
  endpoints: (build) => ({
    getConversation: build.query<Conversation, number>({
      query: (orderId) => ({ url: `admin/orders/${orderId}/conversation` }),
      providesTags: (_result, _error, orderId) => orderTag(orderId),
    }),
    /** The conversation has been on screen, or "Mark read": the answers read, the counts change. */
    markConversationRead: build.mutation<Envelope<{ orderId: number; read: number }>, number>({
      query: (orderId) => ({ url: `admin/orders/${orderId}/conversation/read`, method: 'POST', body: {} }),
      invalidatesTags: (_r, error, orderId) => (error ? [] : [...orderTag(orderId), 'Counts']),
    }),
    /** A staff reply: free text or a template, threaded to the customer's last message. */
    sendStaffReply: build.mutation<
      Envelope<{ mailId: number; processStatus: OrderStatus; to: string }>,
      {
        orderId: number;
        body?: string;
        templateId?: string;
        provider: MailProvider;
        moveTo?: OrderStatus;
        inReplyTo?: number;
        recipient?: 'customer' | 'sender';
        confirmCustomer?: boolean;
      }
    >({
      query: ({ orderId, ...body }) => ({ url: `admin/orders/${orderId}/messages`, method: 'POST', body }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
    /** A call or WhatsApp contact with its outcome; a call-back assigns the order (counts change). */
    logContact: build.mutation<
      Envelope<{
        contactId: number;
        assignedTo: number | null;
        callBackAt: string | null;
        processStatus: string;
      }>,
      {
        orderId: number;
        channel: string;
        outcome: string;
        callBackAt?: string;
        note?: string;
        moveToCustomerCalled?: boolean;
        expectedVersion?: number;
      }
    >({
      query: ({ orderId, ...body }) => ({ url: `admin/orders/${orderId}/contacts`, method: 'POST', body }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts']),
    }),
    /** The file the customer sent as the approved card, after the member confirmed; its mail is held for Undo. */
    attachmentAsCard: build.mutation<
      Envelope<{ mailId: number; documentId: number; heldUntil: string | null }>,
      { orderId: number; attachmentId: number; confirmCustomerFile: boolean }
    >({
      query: ({ orderId, attachmentId, confirmCustomerFile }) => ({
        url: `admin/orders/${orderId}/conversation/attachments/${attachmentId}/use-as-card`,
        method: 'POST',
        body: { confirmCustomerFile },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
    /** Undo of "Use as approved card" inside the undo window. */
    undoCard: build.mutation<
      Envelope<{ documentId: number; cancelledMailId: number }>,
      { orderId: number; documentId: number }
    >({
      query: ({ orderId, documentId }) => ({
        url: `admin/orders/${orderId}/documents/${documentId}/undo`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
    /** Keep the file with the order's documents, not as the card, without mail. */
    saveAttachmentAsDocument: build.mutation<
      Envelope<{ attachmentId: number; name: string; savedAt: string; alreadySaved: boolean }>,
      { orderId: number; attachmentId: number }
    >({
      query: ({ orderId, attachmentId }) => ({
        url: `admin/orders/${orderId}/conversation/attachments/${attachmentId}/save-as-document`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
  }),
});

export const {
  useGetConversationQuery,
  useAttachmentAsCardMutation,
  useLogContactMutation,
  useMarkConversationReadMutation,
  useSaveAttachmentAsDocumentMutation,
  useUndoCardMutation,
  useSendStaffReplyMutation,
} = conversationApi;

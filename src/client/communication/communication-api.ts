import type {
  Macro,
  MacroBody,
  MacroOutcome,
  MailTemplate,
  MailTemplateBody,
  StatusNotification,
} from '../../shared/contracts/communication';
import type {
  WaitingPolicy,
  WaitingPolicyPreview,
  WaitingPolicySwitch,
} from '../../shared/contracts/conversation';
import type { MailPreview } from '../../shared/contracts/order-detail';
import { type Envelope, api } from '../transport/api';

/** Mail templates, status notifications and macros (the settings screens, the detail page, the bulk bar). */
export const communicationApi = api
  .enhanceEndpoints({ addTagTypes: ['Templates', 'Macros', 'Notifications', 'WaitingPolicy'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getTemplates: build.query<MailTemplate[], void>({
        query: () => 'admin/mail-templates',
        providesTags: ['Templates'],
      }),
      getTemplate: build.query<MailTemplate, number>({
        query: (id) => `admin/mail-templates/${id}`,
        providesTags: ['Templates'],
      }),
      saveTemplate: build.mutation<Envelope<MailTemplate>, MailTemplateBody & { id?: number | undefined }>({
        query: ({ id, ...body }) => ({
          url: id ? `admin/mail-templates/${id}` : 'admin/mail-templates',
          method: id ? 'PUT' : 'POST',
          body,
        }),
        invalidatesTags: ['Templates'],
      }),
      deleteTemplate: build.mutation<Envelope, number>({
        query: (id) => ({ url: `admin/mail-templates/${id}`, method: 'DELETE' }),
        invalidatesTags: ['Templates'],
      }),
      previewTemplate: build.mutation<
        Envelope<{ subject: string; html: string; text: string }>,
        { orderId: number; subject: string; body: string }
      >({
        query: (body) => ({ url: 'admin/mail-templates/preview', method: 'POST', body }),
      }),
      getNotifications: build.query<StatusNotification[], void>({
        query: () => 'admin/status-notifications',
        providesTags: ['Notifications'],
      }),
      saveNotifications: build.mutation<Envelope<StatusNotification[]>, StatusNotification[]>({
        query: (settings) => ({ url: 'admin/status-notifications', method: 'PUT', body: { settings } }),
        invalidatesTags: ['Notifications'],
      }),
      /** The waiting policy's steps, what each would touch now, and its switch. */
      getWaitingPreview: build.query<WaitingPolicyPreview, void>({
        query: () => 'admin/waiting-policy/preview',
        providesTags: ['WaitingPolicy'],
      }),
      saveWaitingPolicy: build.mutation<Envelope<WaitingPolicy>, WaitingPolicy>({
        query: (body) => ({ url: 'admin/waiting-policy', method: 'PUT', body }),
        invalidatesTags: ['WaitingPolicy'],
      }),
      switchWaitingPolicy: build.mutation<Envelope<WaitingPolicySwitch>, boolean>({
        query: (enabled) => ({ url: 'admin/waiting-policy/enabled', method: 'PUT', body: { enabled } }),
        invalidatesTags: ['WaitingPolicy'],
      }),
      /** The customer mail a macro would send one order (name, language, preview); null when none. */
      getMacroMailPreview: build.query<MailPreview, { orderId: number; macroId: number }>({
        query: ({ orderId, macroId }) => ({
          url: `admin/orders/${orderId}/mail-preview`,
          params: { macroId },
        }),
        keepUnusedDataFor: 0,
      }),
      getMacros: build.query<Macro[], void>({
        query: () => 'admin/macros',
        providesTags: ['Macros'],
      }),
      saveMacro: build.mutation<Envelope<Macro>, MacroBody & { id?: number | undefined }>({
        query: ({ id, ...body }) => ({
          url: id ? `admin/macros/${id}` : 'admin/macros',
          method: id ? 'PUT' : 'POST',
          body,
        }),
        invalidatesTags: ['Macros'],
      }),
      deleteMacro: build.mutation<Envelope, number>({
        query: (id) => ({ url: `admin/macros/${id}`, method: 'DELETE' }),
        invalidatesTags: ['Macros'],
      }),
      applyMacro: build.mutation<
        Envelope<{ orders: MacroOutcome[] }>,
        { macroId: number; orderIds: number[]; takeOver?: boolean; confirmRecent?: boolean }
      >({
        query: (body) => ({ url: 'admin/apply-macro', method: 'POST', body }),
        invalidatesTags: ['Orders', 'Order', 'Counts'],
      }),
      /** Cancels the actor's customer mail of one order while it still waits (a macro's mail). */
      cancelPendingMail: build.mutation<Envelope<{ cancelled: number }>, number>({
        query: (orderId) => ({
          url: `admin/orders/${orderId}/cancel-pending-mail`,
          method: 'POST',
          body: {},
        }),
        invalidatesTags: ['Order'],
      }),
    }),
  });

export const {
  useGetTemplatesQuery,
  useGetTemplateQuery,
  useSaveTemplateMutation,
  useDeleteTemplateMutation,
  usePreviewTemplateMutation,
  useGetNotificationsQuery,
  useSaveNotificationsMutation,
  useGetMacrosQuery,
  useLazyGetMacroMailPreviewQuery,
  useSaveMacroMutation,
  useDeleteMacroMutation,
  useApplyMacroMutation,
  useCancelPendingMailMutation,
  useGetWaitingPreviewQuery,
  useSaveWaitingPolicyMutation,
  useSwitchWaitingPolicyMutation,
} = communicationApi;

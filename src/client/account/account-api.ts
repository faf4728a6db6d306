import type { SecuritySettings, StaffSessionView } from '../../shared/contracts/account';
import { type Envelope, api } from '../transport/api';

interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
}

/** Own sessions and two-factor sign-in; the Admin's sign-in settings. */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<StaffSessionView[], number | undefined>({
      query: (userId) => ({ url: 'admin/sessions', params: userId ? { userId } : {} }),
      providesTags: ['User'],
    }),
    endSession: build.mutation<Envelope, string>({
      query: (id) => ({ url: `admin/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
    getTwoFactor: build.query<TwoFactorStatus, void>({
      query: () => ({ url: 'admin/2fa' }),
      providesTags: ['User'],
    }),
    setupTwoFactor: build.mutation<Envelope<{ secret: string; otpauthUrl: string; qrSvg: string }>, void>({
      query: () => ({ url: 'admin/2fa/setup', method: 'POST' }),
    }),
    enableTwoFactor: build.mutation<Envelope<{ recoveryCodes: string[] }>, { code: string }>({
      query: (body) => ({ url: 'admin/2fa/enable', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    disableTwoFactor: build.mutation<Envelope, { currentPassword: string; code: string }>({
      query: (body) => ({ url: 'admin/2fa/disable', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    getSecuritySettings: build.query<SecuritySettings, void>({
      query: () => ({ url: 'admin/security-settings' }),
    }),
    saveSecuritySettings: build.mutation<Envelope<SecuritySettings>, SecuritySettings>({
      query: (body) => ({ url: 'admin/security-settings', method: 'PUT', body }),
    }),
  }),
});

export const {
  useGetSessionsQuery,
  useEndSessionMutation,
  useGetTwoFactorQuery,
  useSetupTwoFactorMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
  useGetSecuritySettingsQuery,
  useSaveSecuritySettingsMutation,
} = accountApi;

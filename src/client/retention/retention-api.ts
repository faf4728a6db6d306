import type { RetentionSettings } from '../../shared/contracts/retention';
import { api, type Envelope } from '../transport/api';

/** The retention period of personal data (Admin). */
export const retentionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRetentionSettings: build.query<RetentionSettings, void>({
      query: () => ({ url: 'admin/retention-settings' }),
    }),
    saveRetentionSettings: build.mutation<Envelope<RetentionSettings>, RetentionSettings>({
      query: (body) => ({ url: 'admin/retention-settings', method: 'PUT', body }),
    }),
  }),
});

export const { useGetRetentionSettingsQuery, useSaveRetentionSettingsMutation } = retentionApi;

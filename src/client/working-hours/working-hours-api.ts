import type { WorkingHours } from '../../shared/contracts/working-hours';
import { api, type Envelope } from '../transport/api';

export type WorkingHoursAnswer = WorkingHours & { updatedAt: string | null; updatedBy: string | null };
/** PUT's body: the calendar and optionally an iCalendar file's text whose events' days become holidays. */
export type WorkingHoursSave = WorkingHours & { ical?: string };

/** The working-hours calendar (everyone reads it; an Admin changes it). */
export const workingHoursApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWorkingHours: build.query<WorkingHoursAnswer, void>({
      query: () => ({ url: 'admin/working-hours' }),
    }),
    saveWorkingHours: build.mutation<Envelope<WorkingHoursAnswer>, WorkingHoursSave>({
      query: (body) => ({ url: 'admin/working-hours', method: 'PUT', body }),
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
  }),
});

export const { useGetWorkingHoursQuery, useSaveWorkingHoursMutation } = workingHoursApi;

import type { Role } from '../../shared/constants';
import type { TwoFactorResetBody } from '../../shared/contracts/account';
import type { AddTeamMemberBody, TeamMember, UpdateTeamMemberBody } from '../../shared/contracts/team';
import { type Envelope, api } from '../transport/api';

/** Manage Team calls; every write refreshes the list and the member. */
export const teamApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTeamMembers: build.query<TeamMember[], void>({
      query: () => ({ url: 'admin/get-team-member-list' }),
      providesTags: ['Team'],
    }),
    getTeamMemberTypes: build.query<Role[], void>({
      query: () => ({ url: 'admin/get-team-member-type' }),
    }),
    getTeamMember: build.query<TeamMember, number>({
      query: (id) => ({ url: `admin/team-member-info/${id}` }),
      providesTags: (_r, _e, id) => [{ type: 'Team', id }],
    }),
    addTeamMember: build.mutation<Envelope<TeamMember>, AddTeamMemberBody>({
      query: (body) => ({ url: 'admin/add-team-member', method: 'POST', body }),
      invalidatesTags: ['Team'],
    }),
    updateTeamMember: build.mutation<Envelope<TeamMember>, UpdateTeamMemberBody>({
      query: (body) => ({ url: 'admin/update-team-member', method: 'POST', body }),
      invalidatesTags: ['Team'],
    }),
    resetTwoFactor: build.mutation<Envelope, { id: number } & TwoFactorResetBody>({
      query: ({ id, ...body }) => ({ url: `admin/2fa/reset/${id}`, method: 'POST', body }),
    }),
    deleteTeamMember: build.mutation<
      Envelope,
      { teamMemberId: number; openOrders?: 'release' | 'reassign'; reassignTo?: number }
    >({
      query: (body) => ({ url: 'admin/delete-team-member', method: 'PUT', body }),
      invalidatesTags: ['Team'],
    }),
    /** How many open orders a member holds (asked when Delete is clicked). */
    getMemberOpenOrders: build.query<{ openOrders: number }, number>({
      query: (id) => ({ url: `admin/team-member-open-orders/${id}` }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetTeamMembersQuery,
  useGetTeamMemberTypesQuery,
  useGetTeamMemberQuery,
  useAddTeamMemberMutation,
  useUpdateTeamMemberMutation,
  useDeleteTeamMemberMutation,
  useGetMemberOpenOrdersQuery,
  useResetTwoFactorMutation,
} = teamApi;

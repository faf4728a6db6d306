import type { ChangePasswordBody, LoginBody, LoginResponse, StaffUser } from '../../shared/contracts/auth';
import { type Envelope, api } from '../transport/api';

/** Sign-in, the signed-in user and the own-password change. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginBody>({
      query: (body) => ({ url: 'admin/admin-login', method: 'POST', body }),
    }),
    getUserInfo: build.query<StaffUser, void>({
      query: () => ({ url: 'user_info' }),
      providesTags: ['User'],
    }),
    changePassword: build.mutation<Envelope, ChangePasswordBody>({
      query: (body) => ({ url: 'admin/change-password', method: 'POST', body }),
    }),
  }),
});

export const { useLoginMutation, useGetUserInfoQuery, useChangePasswordMutation } = authApi;

import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY } from '../../shared/constants';
import { getStore } from '../state/store';
import { mockApi, ok, refused, renderRoutes, signInAs } from '../test/fixtures';
import { SESSION_ENDED, Component as StaffRoot } from './staff-root';

afterEach(() => localStorage.clear());

describe('a 401 on a staff screen', () => {
  it('clears the session and the store and shows the sign-in with the session-ended notice', async () => {
    signInAs('Team');
    mockApi({
      'GET /api/admin/get-folder-count': () => refused(401, 'Your session has ended'),
      'GET /api/admin/views': () => ok([]),
      'GET /api/admin/insights/my-day': () => ok(undefined),
      'GET /api/admin/get-orders-list/pendingOrder': () => ok([]),
    });
    renderRoutes(
      [
        {
          path: '/admin',
          element: <StaffRoot />,
          children: [{ path: 'pending-order', element: <p>queue</p> }],
        },
      ],
      '/admin/pending-order',
    );
    expect(await screen.findByText(SESSION_ENDED, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await waitFor(() => expect(screen.getAllByText('Your session has ended').length).toBeGreaterThan(0));
    // The staff store is reset too: signed out, no cached answer of the ended session.
    expect(getStore().getState().auth.isAuth).toBe(false);
    expect(getStore().getState().api.queries).toEqual({});
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../shared/constants';
import { StaffLayout } from './staff-layout';
import { countsFixture, mockApi, ok, renderRoutes, signInAs } from '../test/fixtures';

afterEach(() => localStorage.clear());

function open(role: string) {
  signInAs(role);
  const sent = mockApi({
    'GET /api/admin/get-folder-count': () => ok(countsFixture(), 'Success'),
    'GET /api/admin/views': () => ok([], 'Success'),
    'GET /api/admin/insights/my-day': () => ok({ day: '2026-11-22', completedToday: 3, openAssigned: 5 }),
  });
  renderRoutes(
    [{ path: '/admin', element: <StaffLayout />, children: [{ index: true, element: <p>page</p> }] }],
    '/admin',
  );
  return sent;
}

describe('"My day" card', () => {
  for (const role of ROLES) {
    const hasCard = ['Team', 'Telecaller', 'Night Staff'].includes(role);
    it(`${role}: ${hasCard ? "today's completions and the open assigned orders" : 'no card (has Insights)'}`, async () => {
      const sent = open(role);
      if (hasCard) {
        const card = await screen.findByRole('region', { name: 'My day' });
        await waitFor(() => expect(within(card).getByTestId('my-day-completed')).toHaveTextContent('3'));
        expect(within(card).getByTestId('my-day-open')).toHaveTextContent('5');
        expect(within(card).getByRole('link', { name: '5' })).toHaveAttribute('href', '/admin/my-order');
      } else {
        await screen.findByText('page');
        expect(screen.queryByRole('region', { name: 'My day' })).toBeNull();
        expect(sent.some((r) => r.path === '/api/admin/insights/my-day')).toBe(false);
      }
    });
  }
});

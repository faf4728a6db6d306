import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { callBacksDueResponse } from '../../shared/contracts/call-backs';
import { answer, mockApi, renderPage, signInAs } from '../test/fixtures';
import { Component } from './call-backs-due-page';

afterEach(() => localStorage.clear());

describe('the call-backs due screen', () => {
  it("lists the member's own call-backs and a low rating's, each linking to its order", async () => {
    signInAs('Telecaller');
    mockApi({
      'GET /api/admin/call-backs-due': () =>
        answer(callBacksDueResponse, {
          status: 1,
          message: 'Call-backs due',
          data: [
            {
              orderId: 31,
              name: 'Ana Silva',
              status: 'Completed',
              callBackAt: '2026-11-28T14:00:00Z',
              note: 'Rated 2 of 5: Too slow',
              fromCustomer: true,
            },
            {
              orderId: 32,
              name: 'Jan Vos',
              status: 'Contact Customer',
              callBackAt: '2026-11-28T15:00:00Z',
              note: 'After lunch',
              fromCustomer: false,
            },
          ],
        }),
    });
    renderPage('/admin/call-backs-due', '/admin/call-backs-due', <Component />);
    const table = await screen.findByRole('table', { name: 'Call-backs due' });
    expect(within(table).getByRole('link', { name: '#31' })).toHaveAttribute('href', '/admin/view-order/31');
    expect(table).toHaveTextContent('Low rating (any Telecaller)');
    expect(table).toHaveTextContent('Rated 2 of 5: Too slow');
    expect(within(table).getByRole('link', { name: '#32' })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MailHistoryItem } from '../../shared/contracts/order-detail';
import { Component } from './order-detail-page';
import { encodeOrderId } from '../../shared/order-id';
import { mockApi, orderFixture, renderPage } from '../test/fixtures';

const mail = (overrides: Partial<MailHistoryItem>): MailHistoryItem => ({
  id: 1,
  order_id: 100123,
  create_ts: '2026-07-02T15:00:00.000Z',
  uploadDoc: 'card.pdf',
  remainder_mail: 0,
  mail_service_provider: 'AWS',
  kind: 'approval',
  to_email: 'jane.doe@example.com',
  status: 'sent',
  attempts: 1,
  message_id: '<m@x>',
  error: null,
  sent_ts: '2026-07-02T15:00:01.000Z',
  requested_by: 'Admin',
  document_id: 7,
  download_url: '/api/admin/order-document/7',
  other_recipient: false,
  ...overrides,
});

afterEach(() => vi.unstubAllGlobals());

describe('Email History', () => {
  it('shows who each mail went to, marks another address, labels EDT/EST by date and downloads the document', async () => {
    const order = orderFixture({
      process_status: 'Completed',
      mailHistory: [
        mail({ id: 1 }),
        mail({
          id: 2,
          kind: 'resend',
          create_ts: '2026-12-02T15:00:00.000Z',
          to_email: 'someone@outside.example',
          other_recipient: true,
        }),
        mail({ id: 3, kind: 'refund', uploadDoc: null, document_id: null, download_url: null }),
      ],
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:card', revokeObjectURL: () => {} }),
    );
    const sent = mockApi({
      [`GET /api/admin/get-orders-details/${order.order_id}`]: () => ({
        body: { status: 1, message: 'ok', data: order },
      }),
      'GET /api/admin/order-document/7': () => ({ body: {} }),
    });
    renderPage(
      '/admin/view-order/:orderId',
      `/admin/view-order/${encodeOrderId(order.order_id)}`,
      <Component />,
    );
    const history = within(await screen.findByRole('region', { name: 'Email History' }));
    const rows = history.getAllByRole('row').slice(1);
    // 15:00 UTC is 11:00 EDT in July and 10:00 EST in December.
    expect(within(rows[0]!).getByText('2 Jul 2026 11:00 EDT')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('2 Dec 2026 10:00 EST')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('jane.doe@example.com')).toBeInTheDocument();
    expect(within(rows[0]!).queryByText('not the order e-mail')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('someone@outside.example')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('not the order e-mail')).toBeInTheDocument();
    expect(within(rows[2]!).queryByRole('button', { name: 'card.pdf' })).not.toBeInTheDocument();

    await userEvent.click(within(rows[1]!).getByRole('button', { name: 'card.pdf' }));
    await waitFor(() => expect(sent.some((r) => r.path === '/api/admin/order-document/7')).toBe(true));
  });
});

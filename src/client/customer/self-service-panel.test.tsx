import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/fixtures';
import { saveToken } from './customer-api';
import { Component as DetailsPage } from './order-details-page';

const ORDER = 100124;

function state(over: Record<string, unknown> = {}) {
  return {
    orderId: ORDER,
    version: 7,
    editable: true,
    cancellable: true,
    fields: {
      first_name: 'Ana',
      last_name: 'Kock',
      passport_number: 'P1234567',
      passport_expiration: '2031-05-01',
      date_of_birth: '1985-04-12',
      nationality: 'Spain',
      arrival_date: '2030-01-15',
      departure_date: '2030-01-20',
      flight_number: 'KL 765',
      phone_code: '34',
      telephone_number: '600123456',
    },
    cancellation: { percent: 100, amount: '80.00 USD', policyText: 'Policy text 100%' },
    cancelled: null,
    rating: { asked: false, score: null, comment: '' },
    answers: ['Check the spam folder.'],
    ...over,
  };
}

function serve(
  extra: Record<string, (r: { body: unknown }) => { status: number; body: unknown }> = {},
  over = {},
) {
  return mockApi({
    'POST /api/front/get-download-history': () => ({
      status: 200,
      body: {
        status: 1,
        message: 'No record found',
        data: [],
        mainResult: {
          order_id: ORDER,
          first_name: 'Ana',
          last_name: 'Kock',
          process_status: 'New',
          brand: 'main',
          downloadable: false,
          stage: 'received',
          stageMessage: 'Received',
          stageRequest: null,
        },
        path: { file1: null },
      },
    }),
    [`GET /api/customer/orders/${ORDER}/self-service`]: () => ({
      status: 200,
      body: { status: 1, message: 'Self-service', data: state(over) },
    }),
    ...extra,
  });
}

function open() {
  saveToken(String(ORDER), 'token', 600);
  const router = createMemoryRouter([{ path: '/get-new-order-details/:orderId', element: <DetailsPage /> }], {
    initialEntries: [`/get-new-order-details/${ORDER}`],
  });
  render(<RouterProvider router={router} />);
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
});

describe('the self-service panel of the order page', () => {
  it("shows the stage's answers and corrects a field: only the changed one is sent, with the version", async () => {
    const sent = serve({
      [`PATCH /api/customer/orders/${ORDER}`]: () => ({
        status: 200,
        body: {
          status: 1,
          message: 'Your details have been updated.',
          data: { version: 8, changes: [{ field: 'passport_number', from: 'P1234567', to: 'P7654321' }] },
        },
      }),
    });
    open();
    expect(await screen.findByText('Check the spam folder.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Correct my details' }));
    fireEvent.change(screen.getByLabelText('Passport number'), { target: { value: 'P7654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'SAVE CHANGES' }));
    expect(await screen.findByTestId('correct-done')).toHaveTextContent('Changed: Passport number.');
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.body).toEqual({ expectedVersion: 7, fields: { passport_number: 'P7654321' }, lang: 'en' });
  });

  it('shows a refused field beside it', async () => {
    serve({
      [`PATCH /api/customer/orders/${ORDER}`]: () => ({
        status: 400,
        body: {
          status: 0,
          message: 'Passport number: this value is not valid.',
          data: {
            errors: [{ field: 'passport_number', message: 'Passport number: this value is not valid.' }],
          },
        },
      }),
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Correct my details' }));
    fireEvent.change(screen.getByLabelText('Passport number'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'SAVE CHANGES' }));
    expect(await screen.findByText('Passport number: this value is not valid.')).toBeInTheDocument();
    expect(screen.getByLabelText('Passport number')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the policy and the amount before the cancellation is confirmed, then the confirmation', async () => {
    const sent = serve({
      [`POST /api/customer/orders/${ORDER}/cancel`]: () => ({
        status: 200,
        body: {
          status: 1,
          message: `Your order ${ORDER} is cancelled. Our team will refund 80.00 USD.`,
          data: { percent: 100, amount: '80.00 USD', outcome: 'refunds', replayed: false },
        },
      }),
    });
    open();
    expect(await screen.findByText('Policy text 100%')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel my order' }));
    expect(screen.getByTestId('cancel-amount')).toHaveTextContent('You will get back 80.00 USD.');
    fireEvent.change(screen.getByLabelText('Why do you cancel?'), { target: { value: 'Trip cancelled' } });
    fireEvent.click(screen.getByRole('button', { name: 'CONFIRM CANCELLATION' }));
    expect(await screen.findByTestId('cancel-done')).toHaveTextContent('Our team will refund 80.00 USD.');
    await waitFor(() =>
      expect(sent.find((r) => r.path.endsWith('/cancel'))?.body).toEqual({
        reason: 'Trip cancelled',
        expectedVersion: 7,
        lang: 'en',
      }),
    );
  });

  it('keeps the confirmation once the reloaded order no longer offers the cancellation', async () => {
    let done = false;
    const sent = serve({
      [`POST /api/customer/orders/${ORDER}/cancel`]: () => {
        done = true;
        return {
          status: 200,
          body: {
            status: 1,
            message: `Your order ${ORDER} is cancelled. Our team will refund 80.00 USD.`,
            data: { percent: 100, amount: '80.00 USD', outcome: 'refunds', replayed: false },
          },
        };
      },
      [`GET /api/customer/orders/${ORDER}/self-service`]: () => ({
        status: 200,
        body: {
          status: 1,
          message: 'Self-service',
          data: done ? state({ editable: false, cancellable: false, cancellation: null }) : state(),
        },
      }),
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel my order' }));
    fireEvent.change(screen.getByLabelText('Why do you cancel?'), { target: { value: 'Trip cancelled' } });
    fireEvent.click(screen.getByRole('button', { name: 'CONFIRM CANCELLATION' }));
    expect(await screen.findByTestId('cancel-done')).toHaveTextContent('Our team will refund 80.00 USD.');
    // The state after the cancellation has been read again: the confirmation is still there.
    await waitFor(() =>
      expect(sent.filter((r) => r.path.endsWith('/self-service')).length).toBeGreaterThanOrEqual(2),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('cancel-done')).toHaveTextContent('Our team will refund 80.00 USD.');
    expect(screen.queryByRole('button', { name: 'Cancel my order' })).toBeNull();
  });

  it('asks "How did we do?" once the card was sent, and sends the score and the comment', async () => {
    const sent = serve(
      {
        [`POST /api/customer/orders/${ORDER}/rating`]: () => ({
          status: 200,
          body: { status: 1, message: 'Thank you for your rating.', data: { score: 2, comment: 'Slow' } },
        }),
      },
      {
        editable: false,
        cancellable: false,
        cancellation: null,
        rating: { asked: true, score: null, comment: '' },
      },
    );
    open();
    fireEvent.click(await screen.findByRole('button', { name: '2 of 5' }));
    fireEvent.change(screen.getByLabelText('Anything you want to tell us? (optional)'), {
      target: { value: 'Slow' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'SEND RATING' }));
    expect(await screen.findByTestId('rating-thanks')).toHaveTextContent('Thank you for your rating.');
    expect(sent.find((r) => r.path.endsWith('/rating'))?.body).toEqual({ score: 2, comment: 'Slow' });
    expect(screen.queryByRole('button', { name: 'Correct my details' })).toBeNull();
  });
});

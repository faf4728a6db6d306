import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerStage } from '../../shared/customer-stage';
import type { MessageKey } from '../../shared/i18n/en';
import { type AnyCatalog, createTranslator, type Message } from '../../shared/i18n/format';
import { mockApi } from '../test/fixtures';
import { saveToken } from './customer-api';
import en from './messages/en.json';
import es from './messages/es.json';
import nl from './messages/nl.json';
import pap from './messages/pap.json';
import pt from './messages/pt.json';
import { Component as DetailsPage, deviceName, pendingCopy } from './order-details-page';

const CATALOGS = { en, es, nl, pap, pt };
const translatorFor = (lang: keyof typeof CATALOGS) =>
  createTranslator(
    lang,
    CATALOGS[lang] as unknown as AnyCatalog,
    en as unknown as Record<MessageKey, Message>,
  );

const row = {
  order_id: 100123,
  create_ts: '2026-11-25T10:00:00Z',
  date_time: '11-25-2026 5:00:00 AM',
  time_zone: 'EST',
  ip: '203.0.113.9',
  device: 'Desktop computer',
  device_type: 'desktop',
  browser: 'Chrome',
  os: 'Unknown',
  location: 'Unknown',
};

type Extra = { downloadable?: boolean; request?: string; answered?: boolean };

function serve(stage: CustomerStage, status: string, extra: Extra = {}) {
  return mockApi({ 'POST /api/front/get-download-history': () => historyAnswer(stage, status, extra) });
}

/** The page's answer for an order at a stage. */
function historyAnswer(stage: CustomerStage, status: string, extra: Extra = {}) {
  const messages: Record<string, string> = {
    refunded: 'Your payment has been refunded. It may take a few days to appear on your statement.',
    action_needed: 'We need something from you before we can continue.',
  };
  return {
    status: 200,
    body: {
      status: 1,
      message: 'Download history loaded',
      data: [row],
      mainResult: {
        order_id: 100123,
        first_name: 'Ana',
        last_name: 'Kock',
        process_status: status,
        brand: 'main',
        downloadable: extra.downloadable ?? false,
        stage,
        stageMessage: messages[stage] ?? 'Stage message',
        stageRequest: extra.request ?? null,
        ...(extra.answered
          ? { stageAnswered: true, stageMessage: 'Thank you, we received your answer.' }
          : {}),
      },
      path: { file1: null },
    },
  };
}

function open(search = '') {
  window.history.replaceState(null, '', `/get-new-order-details/100123${search}`);
  saveToken('100123', 'token', 600);
  const router = createMemoryRouter([{ path: '/get-new-order-details/:orderId', element: <DetailsPage /> }], {
    initialEntries: ['/get-new-order-details/100123'],
  });
  render(<RouterProvider router={router} />);
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the customer order page', () => {
  it('gives a refunded order one message: refunded, never "being processed… we will e-mail you"', async () => {
    serve('refunded', 'Refunded');
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Refunded' })).toBeInTheDocument();
    expect(screen.getByText(/Your payment has been refunded/)).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/being processed|We will e-mail you/);
  });

  it('marks the staff request as our team’s own words', async () => {
    serve('action_needed', 'Awaiting', { request: 'Please send a clearer passport photo.' });
    open();
    expect(await screen.findByRole('heading', { name: 'Message from our team:' })).toBeInTheDocument();
    expect(screen.getByText('Written by our team in their own words.')).toBeInTheDocument();
    expect(screen.getByText('Please send a clearer passport photo.').tagName).toBe('BLOCKQUOTE');
  });

  it('after the answer the stage reads "Answer received" with the server\'s words, not "Action needed"', async () => {
    // The answer moved the order back to Received; the request stays on the page.
    serve('received', 'New', { request: 'Please send a clearer passport photo.', answered: true });
    open();
    const stage = await screen.findByRole('region', { name: 'Order progress' });
    await vi.waitFor(() =>
      expect(stage.querySelector('[aria-current=step]')).toHaveTextContent('Answer received'),
    );
    expect(stage).not.toHaveTextContent('Action needed');
    expect(stage).toHaveTextContent('Thank you, we received your answer.');
  });

  it('keeps the thank-you after the answer when the reloaded stage no longer asks (the holder moved on)', async () => {
    let loads = 0;
    mockApi({
      'POST /api/front/get-download-history': () =>
        loads++ === 0
          ? historyAnswer('action_needed', 'Awaiting', { request: 'Please send a clearer passport photo.' })
          : historyAnswer('in_review', 'New'),
      'POST /api/customer/orders/100123/replies': () => ({
        status: 200,
        body: { status: 1, message: 'Received' },
      }),
    });
    open();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Your message'), 'Here is the new photo.');
    await user.click(screen.getByRole('button', { name: 'SEND ANSWER' }));
    expect(await screen.findByTestId('reply-received')).toBeInTheDocument();
    await vi.waitFor(() => expect(loads).toBe(2));
    const stage = screen.getByRole('region', { name: 'Order progress' });
    await vi.waitFor(() => expect(stage.querySelector('[aria-current=step]')).toHaveTextContent('In review'));
    expect(screen.getByTestId('reply-received')).toHaveTextContent('We have received your answer');
  });

  it('shows the device words of the history in the page language', async () => {
    serve('in_review', 'Customer Called');
    open('?lang=es');
    expect(await screen.findByRole('cell', { name: 'Ordenador de escritorio' })).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: 'Desconocido' })).toHaveLength(2);
    expect(screen.queryByRole('cell', { name: 'Desktop computer' })).toBeNull();
  });
});

describe('the stage copy', () => {
  it('says "not available yet" only for an approved order, and never for a refunded or cancelled one', () => {
    expect(pendingCopy('approved')).toEqual({ title: 'details.pendingTitle', text: 'details.pendingText' });
    expect(pendingCopy('refunded')).toEqual({ title: 'stage.refunded', text: null });
    expect(pendingCopy('cancelled')).toEqual({ title: 'stage.cancelled', text: null });
    for (const stage of ['received', 'in_review', 'action_needed', 'with_government'] as const)
      expect(pendingCopy(stage).text).toBeNull();
  });

  it('translates the two fixed device words in all five languages and keeps models as recorded', () => {
    for (const lang of ['en', 'es', 'nl', 'pap', 'pt'] as const) {
      const t = translatorFor(lang);
      expect(deviceName(t, 'Desktop computer')).toBe(t.t('history.desktop'));
      expect(deviceName(t, 'Unknown')).toBe(t.t('history.unknown'));
      expect(deviceName(t, 'iPhone')).toBe('iPhone');
    }
    expect(deviceName(translatorFor('nl'), 'Desktop computer')).toBe('Desktopcomputer');
  });
});

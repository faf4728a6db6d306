import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../shared/messages';
import { mockApi, renderPage } from '../test/fixtures';
import { Component } from './send-invoice-page';

afterEach(() => vi.unstubAllGlobals());

function open(answer: { status?: number; body: unknown }) {
  const sent = mockApi({ 'POST /api/admin/send-invoice': () => answer });
  renderPage('/admin/send-invoice', '/admin/send-invoice', <Component />);
  return sent;
}

describe('Send Invoice page', () => {
  it('checks the order id before sending anything', async () => {
    const user = userEvent.setup();
    const sent = open({ body: { status: 1, message: 'unused' } });
    await user.click(screen.getByRole('button', { name: 'Send Invoice' }));
    expect(await screen.findByText(MSG.invoiceOrderIdRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Order ID'), '12345');
    await user.click(screen.getByRole('button', { name: 'Send Invoice' }));
    expect(await screen.findByText(MSG.invoiceOrderIdMin)).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('toasts the success message and clears the field', async () => {
    const user = userEvent.setup();
    const sent = open({ body: { status: 1, message: 'Invoice sent successfully' } });
    await user.type(screen.getByLabelText('Order ID'), '100123');
    await user.click(screen.getByRole('button', { name: 'Send Invoice' }));
    expect(await screen.findByText('Invoice sent successfully')).toBeInTheDocument();
    expect(sent[0]?.body).toEqual({ orderId: '100123' });
    expect(screen.getByLabelText('Order ID')).toHaveValue('');
  });

  it('toasts the server message for an unknown order and keeps the field', async () => {
    const user = userEvent.setup();
    open({ status: 404, body: { status: 0, message: 'Order not found' } });
    await user.type(screen.getByLabelText('Order ID'), '999999');
    await user.click(screen.getByRole('button', { name: 'Send Invoice' }));
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
    expect(screen.getByLabelText('Order ID')).toHaveValue('999999');
  });

  it('treats status 0 in a 200 answer as a failure', async () => {
    const user = userEvent.setup();
    open({ body: { status: 0, message: 'No order with that id' } });
    await user.type(screen.getByLabelText('Order ID'), '100999');
    await user.click(screen.getByRole('button', { name: 'Send Invoice' }));
    expect(await screen.findByText('No order with that id')).toBeInTheDocument();
    expect(screen.getByLabelText('Order ID')).toHaveValue('100999');
  });
});

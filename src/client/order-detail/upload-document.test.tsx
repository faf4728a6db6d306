import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orderDetailsResponse } from '../../shared/contracts/order-detail';
import { encodeOrderId } from '../../shared/order-id';
import { answer, mockApi, ok, orderFixture, refused, renderPage, signInAs } from '../test/fixtures';
import { Component } from './order-detail-page';

/** Uploading the approved card goes through the transport's upload (XMLHttpRequest with progress). */
function openOrder(onUpload: Parameters<typeof mockApi>[0][string]) {
  const order = orderFixture();
  const sent = mockApi({
    [`GET /api/admin/get-orders-details/${order.order_id}`]: () =>
      answer(orderDetailsResponse, { status: 1, message: 'ok', data: order }),
    'POST /api/admin/upload-visa-document': onUpload,
  });
  renderPage(
    '/admin/view-order/:orderId',
    `/admin/view-order/${encodeOrderId(order.order_id)}`,
    <Component />,
  );
  return sent;
}

const pdf = () => new File(['%PDF-1.4 card'], 'card.pdf', { type: 'application/pdf' });

beforeEach(() => signInAs('Team'));
afterEach(() => localStorage.clear());

describe('upload document', () => {
  it('sends the fields and the file as multipart, toasts the message and reads the order again', async () => {
    const user = userEvent.setup();
    const sent = openOrder(() => ok(undefined, 'Document uploaded and mail queued'));
    const upload = within(await screen.findByRole('region', { name: 'Upload Document' }));
    await user.upload(upload.getByLabelText('PDF or image'), pdf());
    await user.click(upload.getByRole('button', { name: 'Submit (AWS)' }));
    expect(await screen.findByText('Document uploaded and mail queued')).toBeInTheDocument();
    const post = sent.find((r) => r.path === '/api/admin/upload-visa-document');
    expect(post?.body).toMatchObject({
      orderId: '100123',
      email: 'jane.doe@example.com',
      mailServiceProvider: 'AWS',
    });
    expect(post?.headers.get('authorization')).toBeTruthy();
    await waitFor(() =>
      expect(sent.filter((r) => r.path === '/api/admin/get-orders-details/100123')).toHaveLength(2),
    );
  });

  it('a refusal shows the server message and keeps the order as it was', async () => {
    const user = userEvent.setup();
    const sent = openOrder(() => refused(400, 'The file is not a PDF or an image'));
    const upload = within(await screen.findByRole('region', { name: 'Upload Document' }));
    await user.upload(upload.getByLabelText('PDF or image'), pdf());
    await user.click(upload.getByRole('button', { name: 'Submit (SendGrid)' }));
    expect(await screen.findByText('The file is not a PDF or an image')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/upload-visa-document')?.body).toMatchObject({
      mailServiceProvider: 'Sendgrid',
    });
    expect(sent.filter((r) => r.path === '/api/admin/get-orders-details/100123')).toHaveLength(1);
  });
});

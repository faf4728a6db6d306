import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MOVABLE_STATUSES, STATUS_BUTTON_LABELS } from '../../shared/constants';
import { type OrderDetails, orderDetailsResponse } from '../../shared/contracts/order-detail';
import { MSG } from '../../shared/messages';
import { encodeOrderId } from '../../shared/order-id';
import { Component } from './order-detail-page';
import { answer, mockApi, orderFixture, renderPage, signInAs } from '../test/fixtures';

const ROUTE = '/admin/view-order/:orderId';
const detailPath = (order: OrderDetails) => `/api/admin/get-orders-details/${order.order_id}`;

function openOrder(order: OrderDetails, extra: Parameters<typeof mockApi>[0] = {}) {
  const sent = mockApi({
    [`GET ${detailPath(order)}`]: () =>
      answer(orderDetailsResponse, { status: 1, message: 'ok', data: order }),
    ...extra,
  });
  renderPage(ROUTE, `/admin/view-order/${encodeOrderId(order.order_id)}`, <Component />);
  return sent;
}

const sectionTitles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const section = (title: string) => screen.getByRole('region', { name: title });

beforeEach(() => signInAs('Manager'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('order detail page', () => {
  it('answers a malformed encoded id with a not-found message and asks the server nothing', async () => {
    const sent = mockApi({});
    renderPage(ROUTE, '/admin/view-order/not*an*id', <Component />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Order not found');
    expect(sent).toHaveLength(0);
  });

  it('shows not found when the server has no such order', async () => {
    mockApi({
      'GET /api/admin/get-orders-details/999999': () => ({
        status: 404,
        body: { status: 0, message: 'Order not found' },
      }),
    });
    renderPage(ROUTE, `/admin/view-order/${encodeOrderId(999999)}`, <Component />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Order not found');
  });

  it('folds a section from its title and remembers it for the next order; Remark in the bar opens the form', async () => {
    const user = userEvent.setup();
    mockApi({
      [`GET ${detailPath(orderFixture())}`]: () => ({
        body: { status: 1, message: 'ok', data: orderFixture() },
      }),
    });
    const first = renderPage(ROUTE, `/admin/view-order/${encodeOrderId(100123)}`, <Component />);
    await screen.findByText(/Order 100123/);
    const passport = screen.getByRole('button', { name: 'Passport details' });
    expect(passport).toHaveAttribute('aria-expanded', 'true');
    await user.click(passport);
    expect(passport).toHaveAttribute('aria-expanded', 'false');
    expect(within(section('Passport details')).queryByText('Passport Number')).not.toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add Comment Below' }));
    first.unmount();
    vi.unstubAllGlobals();

    openOrder(orderFixture({ order_id: 100124 }));
    await screen.findByText(/Order 100124/);
    expect(screen.getByRole('button', { name: 'Passport details' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.getByRole('button', { name: 'Order Details' })).toHaveAttribute('aria-expanded', 'true');
    const bar = within(screen.getByRole('region', { name: 'Order actions' }));
    expect(bar.getByRole('navigation', { name: 'Move order' })).toBeInTheDocument();
    // jsdom lays nothing out: record the scroll instead.
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    await user.click(bar.getByRole('button', { name: 'Remark' }));
    await waitFor(() => expect(screen.getByPlaceholderText('Enter your remark')).toHaveFocus());
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Add Comment Below' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('shows every section in the product order with the product formats', async () => {
    openOrder(orderFixture());
    await screen.findByText(/Order 100123/);
    expect(sectionTitles()).toEqual([
      // The traveller's passport and trip right under the checks, then the submission.
      'Passport details',
      'Arrival/Departure Date',
      'Submit',
      'Arrival details',
      'Personal Information',
      'Trip Information',
      'Upload Document',
      'Order Details',
      'Download History',
      'Comment History',
      'Add Comment Below',
      'Status Timeline',
      'Conversation',
    ]);
    expect(within(section('Order Details')).getByText('100123@ed-card.test')).toBeInTheDocument();
    const personal = within(section('Personal Information'));
    expect(personal.getByText('Netherlands')).toBeInTheDocument();
    expect(personal.getAllByText('JANE.DOE@EXAMPLE.COM')).toHaveLength(2);
    expect(personal.getByText('+31 612345678')).toBeInTheDocument();
    expect(within(section('Arrival/Departure Date')).getByText('14/03/2026')).toBeInTheDocument();
    expect(within(section('Download History')).getByText(MSG.noRecord)).toBeInTheDocument();
    expect(within(section('Upload Document')).getByLabelText('Order ID')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Download File' })).not.toBeInTheDocument();
  });

  it('shows the Customer replied badge in the header only while an answer is unread', async () => {
    openOrder(orderFixture({ process_status: 'New', customer_replied: true }));
    await screen.findByText(/Order 100123/);
    expect(screen.getByTestId('detail-replied')).toHaveTextContent('Customer replied');
  });

  it('has no Customer replied badge without an unread answer', async () => {
    openOrder(orderFixture({ process_status: 'New', customer_replied: false }));
    await screen.findByText(/Order 100123/);
    expect(screen.queryByTestId('detail-replied')).toBeNull();
  });

  it('offers the moves the order rules allow, and no packs outside Completed / Customer Called', async () => {
    openOrder(orderFixture({ process_status: 'Awaiting' }));
    await screen.findByText(/Order 100123/);
    const moves = within(screen.getByRole('navigation', { name: 'Move order' }))
      .getAllByRole('button')
      .map((b) => b.textContent);
    // Completed Refunds only from Refunds; the current status is never offered.
    expect(moves).toEqual(
      MOVABLE_STATUSES.filter((s) => s !== 'Awaiting' && s !== 'Refunded').map(
        (s) => STATUS_BUTTON_LABELS[s],
      ),
    );
    expect(screen.getByRole('button', { name: 'View Email Content' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Defence Pack 1' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enter Transaction Details' })).not.toBeInTheDocument();
  });

  it('shows mail history, the document link, the packs and a country fallback for a completed order', async () => {
    const order = orderFixture({
      process_status: 'Completed',
      country_of_residence: 'XXX',
      uploadDoc: [
        {
          id: 7,
          order_id: 100123,
          current: true,
          withdrawn_at: null,
          withdraw_reason: null,
          file1: 'card.pdf',
          mail_service_provider: 'Sendgrid',
          mime_type: 'application/pdf',
          size_bytes: 1200,
          create_ts: '2026-03-02T15:00:00.000Z',
          uploaded_by: 'Admin',
          download_url: '/api/admin/documents/7',
        },
      ],
      mailHistory: [
        {
          id: 3,
          order_id: 100123,
          create_ts: '2026-03-02T15:00:00.000Z',
          uploadDoc: 'card.pdf',
          remainder_mail: 1,
          mail_service_provider: 'Sendgrid',
          kind: 'reminder',
          to_email: 'jane.doe@example.com',
          status: 'sent',
          attempts: 1,
          message_id: '<m1@x>',
          error: null,
          sent_ts: '2026-03-02T15:00:01.000Z',
          requested_by: null,
        },
      ],
    });
    openOrder(order);
    await screen.findByText(/Order 100123/);
    // Mail history sits right after Upload Document, below the traveller's identity and trip.
    expect(sectionTitles().slice(6, 8)).toEqual(['Upload Document', 'Email History']);
    const history = within(section('Email History'));
    // 15:00 UTC on 2 March is 10:00 in New York (EST).
    expect(history.getByText('2 Mar 2026 10:00 EST')).toBeInTheDocument();
    expect(history.getByText('Yes')).toBeInTheDocument();
    expect(history.getByRole('textbox')).toHaveValue('jane.doe@example.com');
    expect(history.getByRole('button', { name: 'Resend Mail (AWS)' })).toBeInTheDocument();
    expect(history.getByRole('button', { name: 'Resend Mail (Sendgrid)' })).toBeInTheDocument();
    expect(within(section('Personal Information')).getByText('Unknown Country')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download File' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Defence Pack 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Defence Pack 2' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move to Completed Orders' })).not.toBeInTheDocument();
  });

  it('reveals a remark and its six flags with Show, N when a flag is empty, and hides it again', async () => {
    const user = userEvent.setup();
    openOrder(
      orderFixture({
        remarks: [
          {
            id: 1,
            order_id: 100123,
            us_date: '03-02-2026',
            us_time: '10:00:00 AM',
            remark_name: 'Alice Admin',
            remark: 'Customer asked for a refund',
            whatsapp: 'Y',
            telephone: 'N',
            status_refund: 'Y',
            voided: 'N',
            chargeback: 'N',
            report_error: 'N',
            create_ts: '2026-03-02T15:00:00.000Z',
          },
        ],
      }),
    );
    const remarks = within(await screen.findByRole('region', { name: 'Comment History' }));
    expect(remarks.getByText('2 Mar 2026 10:00 EST')).toBeInTheDocument();
    // The remark's text shows without a click; Show reveals its flags.
    expect(remarks.getByText('Customer asked for a refund')).toBeVisible();
    expect(remarks.queryByRole('listitem')).not.toBeInTheDocument();
    await user.click(remarks.getByRole('button', { name: 'Show' }));
    expect(remarks.getByText('Customer asked for a refund')).toBeInTheDocument();
    const flags = remarks.getAllByRole('listitem').map((li) => li.textContent);
    expect(flags).toEqual([
      'Whatsapp: Y',
      'Telephone: N',
      'Refund: Y',
      'Voided: N',
      'Chargeback: N',
      'ReportError: N',
    ]);
    await user.click(remarks.getByRole('button', { name: 'Hide' }));
    expect(remarks.queryByRole('listitem')).not.toBeInTheDocument();
    expect(remarks.getByText('Customer asked for a refund')).toBeVisible();
  });

  it('shows a long remark folded with a more toggle, and all of it after more', async () => {
    const user = userEvent.setup();
    const long = `${'Called the traveller about the passport photo. '.repeat(8)}END-OF-REMARK`;
    openOrder(
      orderFixture({
        remarks: [
          {
            id: 2,
            order_id: 100123,
            us_date: '03-02-2026',
            us_time: '10:00:00 AM',
            remark_name: 'Alice Admin',
            remark: long,
            whatsapp: 'N',
            telephone: 'N',
            status_refund: 'N',
            voided: 'N',
            chargeback: 'N',
            report_error: 'N',
            create_ts: '2026-03-02T15:00:00.000Z',
          },
        ],
      }),
    );
    const remarks = within(await screen.findByRole('region', { name: 'Comment History' }));
    const text = remarks.getByTestId('remark-text');
    expect(text).toHaveTextContent(/^Called the traveller about the passport photo\./);
    expect(text).not.toHaveTextContent('END-OF-REMARK');
    await user.click(remarks.getByRole('button', { name: 'more' }));
    expect(text).toHaveTextContent('END-OF-REMARK');
    await user.click(remarks.getByRole('button', { name: 'less' }));
    expect(text).not.toHaveTextContent('END-OF-REMARK');
  });

  it('refuses an empty remark without a request, then sends the flags as Y/N and reloads the order', async () => {
    const user = userEvent.setup();
    const order = orderFixture();
    const sent = openOrder(order, {
      'POST /api/admin/add-new-remark': () => ({ body: { status: 1, message: 'Remark added successfully' } }),
    });
    const panel = within(await screen.findByRole('region', { name: 'Add Comment Below' }));
    await user.click(panel.getByRole('button', { name: 'Submit' }));
    expect(await panel.findByText(MSG.remarkRequired)).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.type(panel.getByPlaceholderText('Enter your remark'), 'Called the customer');
    await user.click(panel.getByLabelText('Telephone'));
    await user.click(panel.getByLabelText('Refund (moves the order to Refunds)'));
    expect(panel.getByText('This remark moves the order to Refunds.')).toBeInTheDocument();
    await user.click(panel.getByRole('button', { name: 'Submit' }));
    // A flag that moves the order asks first.
    expect(await screen.findByText('This remark moves the order to Refunds. Continue?')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Remark added successfully')).toBeInTheDocument();
    const post = sent.find((r) => r.path === '/api/admin/add-new-remark');
    expect(post?.body).toMatchObject({
      orderId: 100123,
      remark: 'Called the customer',
      whatsapp: 'N',
      telephone: 'Y',
      statusRefund: 'Y',
      voided: 'N',
      chargeBack: 'N',
      reportError: 'N',
    });
    await waitFor(() => expect(sent.filter((r) => r.path === detailPath(order))).toHaveLength(2));
    expect(panel.getByPlaceholderText('Enter your remark')).toHaveValue('');
  });

  it('moves the order, toasts the answer and reloads it; Move to Delete asks first', async () => {
    const user = userEvent.setup();
    const order = orderFixture();
    const sent = openOrder(order, {
      'PUT /api/admin/move-order-status': () => ({ body: { status: 1, message: 'Order status updated' } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Move to Delete' }));
    expect(await screen.findByText(MSG.confirmDelete)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(sent.filter((r) => r.path === '/api/admin/move-order-status')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Move to Awaiting Govt' }));
    expect(await screen.findByText('Order status updated')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/move-order-status')?.body).toEqual({
      orderId: 100123,
      updatingStatus: 'AwaitingGovt',
      // The version shown: a change made elsewhere in the meantime is refused, not overwritten.
      expectedVersion: 1,
    });
    await waitFor(() => expect(sent.filter((r) => r.path === detailPath(order))).toHaveLength(2));
  });

  it('mirrors the order rules per role: no Delete for Team, Restore instead of moves on a deleted order', async () => {
    signInAs('Team');
    openOrder(orderFixture({ process_status: 'Awaiting' }));
    await screen.findByText(/Order 100123/);
    const nav = () => within(screen.getByRole('navigation', { name: 'Move order' }));
    expect(nav().queryByRole('button', { name: 'Move to Delete' })).not.toBeInTheDocument();
    expect(nav().getByRole('button', { name: 'Move to Awaiting Govt' })).toBeInTheDocument();
  });

  it('offers Restore on a deleted order to a Manager, and sends it', async () => {
    const user = userEvent.setup();
    const sent = openOrder(orderFixture({ process_status: 'Deleted' }), {
      'PUT /api/admin/restore-order': () => ({
        body: { status: 1, message: 'Order has been restored to Awaiting Customer.' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Order has been restored to Awaiting Customer.')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/restore-order')?.body).toEqual({ orderId: [100123] });
  });

  it('a Refund flag on a deleted order is explained and cannot be sent by Team', async () => {
    const user = userEvent.setup();
    signInAs('Team');
    openOrder(orderFixture({ process_status: 'Deleted' }));
    const panel = within(await screen.findByRole('region', { name: 'Add Comment Below' }));
    await user.click(panel.getByLabelText('Refund (moves the order to Refunds)'));
    expect(panel.getByText('Only an Admin or Manager can take an order out of Deleted.')).toBeInTheDocument();
    expect(panel.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });

  it('shows the server message when a move is refused', async () => {
    const user = userEvent.setup();
    openOrder(orderFixture(), {
      'PUT /api/admin/move-order-status': () => ({
        status: 409,
        body: { status: 0, message: 'The order is already in that status' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Move to Customer Called' }));
    // In the toast, and beside Reload on the page.
    expect((await screen.findAllByText('The order is already in that status'))[0]).toBeInTheDocument();
  });

  it('asks for a file before uploading', async () => {
    const user = userEvent.setup();
    openOrder(orderFixture());
    const upload = within(await screen.findByRole('region', { name: 'Upload Document' }));
    await user.click(upload.getByRole('button', { name: 'Submit (AWS)' }));
    expect(await upload.findByText(MSG.fileRequired)).toBeInTheDocument();
    await user.clear(upload.getByLabelText('Email'));
    await user.click(upload.getByRole('button', { name: 'Submit (SendGrid)' }));
    expect(await upload.findByText(MSG.uploadEmailRequired)).toBeInTheDocument();
  });

  it('checks the transaction details form and saves it, closing the modal', async () => {
    const user = userEvent.setup();
    const sent = openOrder(
      orderFixture({ process_status: 'Customer Called', transaction_id: null, merchant_name: null }),
      {
        'POST /api/admin/save-transaction-details': () => ({
          body: { status: 1, message: 'Transaction details saved' },
        }),
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Enter Transaction Details' }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(MSG.transactionIdRequired)).toBeInTheDocument();
    expect(dialog.getByText(MSG.merchantNameRequired)).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Transaction Id'), 'pi_123');
    await user.type(dialog.getByLabelText('Merchant Name'), 'Stripe');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Transaction details saved')).toBeInTheDocument();
    expect(sent.find((r) => r.path === '/api/admin/save-transaction-details')?.body).toEqual({
      orderId: 100123,
      transactionId: 'pi_123',
      merchantName: 'Stripe',
      expectedVersion: 1,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the approval notice and opens WhatsApp to +code number with its text', async () => {
    const user = userEvent.setup();
    const open = vi.fn();
    vi.stubGlobal('open', open);
    openOrder(orderFixture(), {
      'GET /api/admin/get-email-content/100123': () => ({
        body: {
          status: 1,
          message: 'ok',
          data: {
            subject: 'Approved',
            html: '<p>Dear Jane Doe</p>',
            text: 'Dear Jane Doe',
            whatsappText: 'Your card is ready',
            whatsappUrl: null,
          },
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'View Email Content' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Email Content', { selector: '.modal-title' })).toBeInTheDocument();
    expect(await dialog.findByTitle('Email Content')).toHaveAttribute('srcdoc', '<p>Dear Jane Doe</p>');
    await user.click(dialog.getByRole('button', { name: 'Send Whatsapp Message' }));
    expect(open).toHaveBeenCalledWith(
      'https://wa.me/31612345678?text=Your%20card%20is%20ready',
      '_blank',
      'noopener,noreferrer',
    );
    await user.click(dialog.getByText('Close', { selector: '.modal-footer button' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PDFParse } from 'pdf-parse';
import { encodeOrderId } from '../src/shared/order-id.js';
import type { Page } from '@playwright/test';
import { expect, loginAs, makeOrder, test, todayIso } from './fixtures.js';

const SECTIONS = [
  'Upload Document',
  'Order Details',
  'Arrival/Departure Date',
  'Passport details',
  'Arrival details',
  'Personal Information',
  'Trip Information',
  'Download History',
  'Comment History',
  'Add Comment Below',
  'Status Timeline',
];

async function approvedCardPdf(orderId: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(`Approved ED card ${orderId}`, { x: 60, y: 760, size: 18, font });
  return Buffer.from(await doc.save());
}

/** A fresh order of our own, so that a test does not depend on the demo set's state. */
const newOrder = async (page: Page) =>
  (
    await makeOrder(page.request, {
      email: 'e2e.detail@example.com',
      passport_number: 'E2E1234567',
      last_name: 'Detail',
      first_name: 'Edith',
      processing_date: todayIso(),
    })
  ).orderId;

test('staff open an order from a list and work it: remark, move, upload, both Defence Packs', async ({
  page,
}) => {
  const orderId = await newOrder(page);
  const token = await loginAs(page, 'Admin');
  const counts = async () =>
    (
      await (
        await page.request.get('/api/admin/get-folder-count', { headers: { Authorization: token } })
      ).json()
    ).data as Record<string, number>;

  // Open it from the Order History list.
  await page.goto('/admin/order-history');
  await page
    .locator(`a[href="/admin/view-order/${encodeOrderId(orderId)}"]`)
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/view-order/${encodeOrderId(orderId)}$`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`Order ${orderId}`) })).toBeVisible();
  for (const title of SECTIONS) {
    await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Email History' })).toHaveCount(0);
  const personal = page.getByRole('region', { name: 'Personal Information' });
  await expect(personal.getByText('Netherlands')).toBeVisible();
  await expect(personal.getByText('E2E.DETAIL@EXAMPLE.COM')).toHaveCount(2);
  await expect(personal.getByText('+31 612345678', { exact: true })).toBeVisible();

  // The approval notice as mailed, and WhatsApp to +code number.
  await page.getByRole('button', { name: 'View Email Content' }).click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByText('Email Content', { exact: true })).toBeVisible();
  await expect(
    modal.frameLocator('iframe[title="Email Content"]').getByText(String(orderId)).first(),
  ).toBeVisible();
  const [whatsapp] = await Promise.all([
    page.context().waitForEvent('request', (r) => r.url().startsWith('https://wa.me/')),
    modal.getByRole('button', { name: 'Send Whatsapp Message' }).click(),
  ]);
  expect(whatsapp.url()).toMatch(/^https:\/\/wa\.me\/31612345678\?text=.+/);
  await modal.locator('.modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(modal).toHaveCount(0);

  // Add a remark: the author is the signed-in user.
  const addRemark = page.getByRole('region', { name: 'Add Comment Below' });
  await addRemark.getByPlaceholder('Enter your remark').fill('Called the customer about the flight');
  await addRemark.getByLabel('Whatsapp').check();
  await addRemark.getByRole('button', { name: 'Submit' }).click();
  const remarks = page.getByRole('region', { name: 'Comment History' });
  await expect(remarks.getByRole('cell', { name: 'Demo Admin' })).toBeVisible();
  await remarks.getByRole('button', { name: 'Show' }).click();
  await expect(remarks.getByText('Called the customer about the flight')).toBeVisible();
  await expect(remarks.getByText('Whatsapp: Y')).toBeVisible();
  await expect(remarks.getByText('Refund: N')).toBeVisible();

  // Move it: the badge, the buttons and the counts follow.
  const before = await counts();
  const moves = page.getByRole('navigation', { name: 'Move order' });
  await moves.getByRole('button', { name: 'Move to Awaiting Govt' }).click();
  await expect(page.getByTestId('process-status')).toHaveText('AwaitingGovt');
  await expect(moves.getByRole('button', { name: 'Move to Awaiting Govt' })).toHaveCount(0);
  // Every move but the current status and Completed Refunds (only from Refunds, by the order rules).
  await expect(moves.getByRole('button')).toHaveCount(6);
  expect((await counts()).awaitingGovtCount).toBe(before.awaitingGovtCount! + 1);
  await expect(
    page.getByRole('region', { name: 'Status Timeline' }).getByRole('cell', { name: 'AwaitingGovt' }),
  ).toBeVisible();

  // Upload the approved card with AWS: the mail shows up in Email History.
  const upload = page.getByRole('region', { name: 'Upload Document' });
  await upload.getByLabel('PDF or image').setInputFiles({
    name: 'approved-card.pdf',
    mimeType: 'application/pdf',
    buffer: await approvedCardPdf(orderId),
  });
  await upload.getByRole('button', { name: 'Submit (AWS)' }).click();
  const mails = page.getByRole('region', { name: 'Email History' });
  await expect(mails.getByRole('cell', { name: 'approved-card.pdf' })).toBeVisible();
  await expect(mails.getByRole('cell', { name: 'AWS', exact: true })).toBeVisible();
  await expect(mails.getByRole('cell', { name: /^sent/ })).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    upload.getByRole('button', { name: 'Download File' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('approved-card.pdf');

  // Defence Packs are offered once the order is Completed; each opens as a PDF in a new window.
  await expect(page.getByRole('button', { name: 'Defence Pack 1' })).toHaveCount(0);
  await moves.getByRole('button', { name: 'Move to Completed Orders' }).click();
  // The mail the customer will get is said first (decision 298).
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('process-status')).toHaveText('Completed');
  // Pass-through: the real server answers; the test keeps a copy of the PDF the page received.
  const packs: Buffer[] = [];
  await page.route('**/api/admin/get-defence-pack-pdf', async (route) => {
    const response = await route.fetch();
    packs.push(await response.body());
    await route.fulfill({ response });
  });
  for (const pack of [1, 2]) {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: `Defence Pack ${pack}` }).click(),
    ]);
    await popup.waitForURL(/^blob:/);
    const pdf = packs[pack - 1]!;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text } = await new PDFParse({ data: new Uint8Array(pdf) }).getText();
    expect(text).toContain(String(orderId));
    // Pack 1 carries the approved document itself; Pack 2 adds the status history in words, never the
    // internal remarks.
    if (pack === 1) expect(text).toContain(`Approved ED card ${orderId}`);
    else {
      expect(text).toContain('Status history');
      expect(text).not.toContain('Called the customer about the flight');
    }
    await popup.close();
  }
});

test('an upload that is not a PDF or image is refused with the server message and mails nothing', async ({
  page,
}) => {
  const orderId = await newOrder(page);
  await loginAs(page, 'Admin');
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const upload = page.getByRole('region', { name: 'Upload Document' });
  await upload.getByLabel('PDF or image').setInputFiles({
    name: 'card.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('just some text pretending to be a PDF'),
  });
  await upload.getByRole('button', { name: 'Submit (SendGrid)' }).click();
  await expect(page.getByText('Only PDF, PNG, JPEG or WebP files are accepted.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Upload Document' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Email History' })).toHaveCount(0);
  await expect(upload.getByRole('button', { name: 'Download File' })).toHaveCount(0);
});

test('a malformed order id in the URL shows not found', async ({ page }) => {
  await loginAs(page, 'Admin');
  await page.goto('/admin/view-order/bad-id!');
  await expect(page.getByRole('alert')).toHaveText('Order not found');
});

test('Send Invoice refuses a short order id with the product message', async ({ page }) => {
  await loginAs(page, 'Admin');
  await page.goto('/admin/send-invoice');
  await page.getByLabel('Order ID').fill('123');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByText('Order Id must be at least 6 characters.')).toBeVisible();
});

test('Send Invoice mails the invoice of an order and logs it in its Email History', async ({ page }) => {
  const orderId = await newOrder(page);
  await loginAs(page, 'Admin');
  await page.goto('/admin/send-invoice');
  await page.getByLabel('Order ID').fill(String(orderId));
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByText('Invoice has been sent to e2e.detail@example.com.')).toBeVisible();
  await expect(page.getByLabel('Order ID')).toHaveValue('');
  await page.getByLabel('Order ID').fill('999999999');
  await page.getByRole('button', { name: 'Send Invoice' }).click();
  await expect(page.getByText('No order found with this order id.')).toBeVisible();
  await expect(page.getByLabel('Order ID')).toHaveValue('999999999');

  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const mails = page.getByRole('region', { name: 'Email History' });
  await expect(mails.getByRole('row')).toHaveCount(2);
});

test('a Refund remark moves the order to Refunds after asking; Move to Completed Refunds asks, then refunds', async ({
  page,
}) => {
  const orderId = await newOrder(page);
  await loginAs(page, 'Admin');
  await page.goto(`/admin/view-order/${encodeOrderId(orderId)}`);
  const moves = page.getByRole('navigation', { name: 'Move order' });
  // Completed Refunds is only offered from Refunds (the order rules).
  await expect(moves.getByRole('button', { name: 'Move to Completed Refunds' })).toHaveCount(0);
  const panel = page.getByRole('region', { name: 'Add Comment Below' });
  await panel.getByPlaceholder('Enter your remark').fill('Customer asked for a refund');
  await panel.getByLabel('Refund (moves the order to Refunds)').check();
  await panel.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(
    page.getByText('Remark has been added successfully and the order moved to Refunds.'),
  ).toBeVisible();
  await expect(page.getByTestId('process-status')).toHaveText('Refunds');
  await moves.getByRole('button', { name: 'Move to Completed Refunds' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('Completed Refunds');
  await confirm.getByRole('button', { name: 'No' }).click();
  await expect(page.getByTestId('process-status')).toHaveText('Refunds');
  await moves.getByRole('button', { name: 'Move to Completed Refunds' }).click();
  // The move asks why (docs/product.md, "Refund reasons"): Yes waits for a reason.
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Yes' })).toBeDisabled();
  await page.getByRole('dialog').getByLabel('Refund reason').selectOption('customer_request');
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByTestId('process-status')).toHaveText('Refunded');
  await expect(moves.getByRole('button', { name: 'Move to Completed Refunds' })).toHaveCount(0);
});

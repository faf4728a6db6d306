import { PDFDocument, StandardFonts } from 'pdf-lib';
import { encodeOrderId } from '../src/shared/order-id.js';
import { mrzOf, passportImage } from '../src/server/test/passport-image.js';
import { expect, loginAs, makeOrder, staffToken, test, todayIso } from './fixtures.js';

/**
 * The government step in the browser (docs/product.md, "Submitting to the government", "Passport
 * scan"): a person submits an order from the packet with the keyboard alone; the government's mail
 * brings the card onto the open detail without a reload; a customer's passport photo raises the scan
 * check and one click takes the scan's value.
 */

/** playwright.config.ts: the inbound route's token, the application addresses' domain, our receiving server. */
const INBOUND_TOKEN = 'e2e-inbound-token-0123456789';
const APP_MAIL_DOMAIN = 'ed-card.test';
const AUTHSERV = 'mx.e2e.test';

test('an order is submitted from the packet with the keyboard only: copy, reference, mark submitted', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await loginAs(page, 'Team');
  const order = await makeOrder(page.request, {
    last_name: 'Øster-Straße',
    first_name: 'Łucja',
    processing_date: todayIso(),
  });
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const packet = page.getByTestId('submission-packet');
  await expect(packet).toBeVisible();
  const copyButtons = packet.getByRole('button', { name: /^Copy / });
  const count = await copyButtons.count();
  expect(count).toBeGreaterThan(5);

  // Tab from the top of the page until the first Copy button has the focus: no mouse.
  const first = copyButtons.first();
  for (let i = 0; i < 400 && !(await first.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press('Tab');
  await expect(first).toBeFocused();

  // `c` copies the focused field and moves to the next: the surname in the form's format.
  const surnameRow = packet.locator('tr[data-key="last_name"]');
  const surnameButton = surnameRow.getByRole('button', { name: /^Copy / });
  for (let i = 0; i < count && !(await surnameButton.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press('c');
  await expect(surnameButton).toBeFocused();
  await page.keyboard.press('c');
  await expect(surnameButton).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('OSTER-STRASSE');

  // On to the reference, typed, and Enter marks the order submitted.
  const reference = page.getByLabel('Government reference');
  for (let i = 0; i < 200 && !(await reference.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press('Tab');
  await expect(reference).toBeFocused();
  await page.keyboard.type('ED-2030-0042');
  await page.keyboard.press('Enter');
  await expect(
    page.locator('.Toastify__toast').filter({ hasText: 'marked submitted with reference ED-2030-0042' }),
  ).toBeVisible();
  await expect(page.getByTestId('government-reference')).toContainText('ED-2030-0042');
  const token = await staffToken(page.request, 'Team');
  const detail = await page.request.get(`/api/admin/get-orders-details/${order.orderId}`, {
    headers: { authorization: token },
  });
  expect((await detail.json()).data).toMatchObject({
    process_status: 'AwaitingGovt',
    government_reference: 'ED-2030-0042',
  });
});

/** The approved card as the government mails it. */
async function cardPdf(orderId: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setKeywords([`e2e-card-${orderId}-${Date.now()}`]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  ['ARUBA ED CARD - APPROVED', 'Surname: Mailed', 'Given names: Mia'].forEach((text, i) => {
    page.drawText(text, { x: 50, y: 780 - i * 30, size: 16, font });
  });
  return Buffer.from(await pdf.save());
}

/** A government mail as our receiving server hands it to the inbound route (real MIME). */
function governmentMail(orderId: number, pdf: Buffer): Buffer {
  const boundary = `gov${Date.now()}`;
  return Buffer.from(
    [
      `Authentication-Results: ${AUTHSERV}; dkim=pass header.d=gov.aw header.s=s1; dmarc=pass header.from=gov.aw`,
      'From: Immigration <edcard@gov.aw>',
      `To: ${orderId}@${APP_MAIL_DOMAIN}`,
      `Subject: ED card application ${orderId}`,
      `Message-ID: <gov-e2e-${orderId}-${Date.now()}@gov.aw>`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Your application has been approved.',
      `--${boundary}`,
      'Content-Type: application/pdf; name="edcard.pdf"',
      'Content-Disposition: attachment; filename="edcard.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      pdf.toString('base64').replace(/(.{76})/g, '$1\r\n'),
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

test('government mail arrives while the holder has the order open: the card appears without a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const token = await loginAs(page, 'Team');
  const order = await makeOrder(page.request, {
    last_name: 'Mailed',
    first_name: 'Mia',
    processing_date: todayIso(),
  });
  const moved = await page.request.post(`/api/admin/orders/${order.orderId}/submitted`, {
    headers: { authorization: token },
    data: { governmentReference: `GOV-${order.orderId}` },
  });
  expect(moved.ok(), await moved.text()).toBeTruthy();
  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const upload = page.getByRole('region', { name: 'Upload Document' });
  await expect(upload).toBeVisible();
  await expect(page.getByTestId('card-check')).toHaveCount(0);

  const res = await page.request.post('/api/inbound/mail', {
    headers: { authorization: `Bearer ${INBOUND_TOKEN}`, 'content-type': 'message/rfc822' },
    data: governmentMail(order.orderId, await cardPdf(order.orderId)),
  });
  expect(res.ok(), await res.text()).toBeTruthy();

  // No reload: the card and its check arrive on the open page, with the one click that sends it.
  const check = page.getByTestId('card-check');
  await expect(check).toBeVisible({ timeout: 30_000 });
  await expect(check).toContainText('The government mailed this card', { timeout: 30_000 });
  await expect(check.getByRole('button', { name: 'Send the card and complete' })).toBeVisible();
  await expect(upload).toContainText('edcard.pdf');
  await expect(check).toContainText('Card check: matches the order');
  await expect(
    page.getByText('The government sent the approved card: check it and send it to the customer.').first(),
  ).toBeVisible();
});

test("a customer's passport photo raises the scan check on the detail and one click takes the scan's value", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const token = await loginAs(page, 'Team');
  const mrz = mrzOf({
    surname: 'MUSTERMANN',
    given: 'ERIKA',
    number: 'C01X00T48',
    country: 'D<<',
    birth: '640812',
    sex: 'F',
    expiry: '311031',
  });
  // The customer sends the photo of the passport's data page with the application.
  const order = await makeOrder(page.request, {
    last_name: 'Mustermann',
    first_name: 'Erika',
    passport_number: 'C01X00T47',
    nationality: 'Germany',
    date_of_birth: '1964-08-12',
    passport_expiration: '2031-10-31',
    passport_scan: {
      file_name: 'passport.png',
      mime_type: 'image/png',
      content_base64: passportImage(mrz, { noise: true }).toString('base64'),
    },
  });
  // The photo is read off the request: wait for the scan before opening the detail.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/admin/orders/${order.orderId}/passport-scan`, {
          headers: { authorization: token },
        });
        return (await res.json()).data?.passportScan?.status ?? null;
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe('read');

  await page.goto(`/admin/view-order/${encodeOrderId(order.orderId)}`);
  const scan = page.getByTestId('passport-scan');
  await expect(scan).toContainText('machine-readable zone read');
  const row = scan.locator('tr[data-field="passport_number"]');
  await expect(row).toHaveAttribute('data-differs', 'true');
  await expect(row).toContainText('C01X00T48');
  await expect(row).toContainText('C01X00T47');
  const scanCheck = page.getByText("The passport scan differs from the order: see the scan's values.");
  await expect(scanCheck.first()).toBeVisible();

  await row.getByRole('button', { name: "Use the scan's value" }).click();
  await expect(row).toHaveAttribute('data-differs', 'false');
  await expect(row.getByRole('button', { name: "Use the scan's value" })).toHaveCount(0);
  await expect(scanCheck).toHaveCount(0);
  const detail = await page.request.get(`/api/admin/get-orders-details/${order.orderId}`, {
    headers: { authorization: token },
  });
  expect((await detail.json()).data.passport_number).toBe('C01X00T48');
});

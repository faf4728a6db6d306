import { PDFDocument, StandardFonts } from 'pdf-lib';
import { encodeOrderId } from '../src/shared/order-id.js';
import { expect, loginAs, makeOrder, test, todayIso } from './fixtures.js';

/** A one-page card as the government prints it, with the given passport number. */
async function cardPdf(orderId: number, passport: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const lines = [
    `ED card for order ${orderId}`,
    'Surname: Checker',
    'Given names: Carla',
    `Passport number: ${passport}`,
    'Arrival date: 2030-01-15',
  ];
  lines.forEach((text, i) => {
    page.drawText(text, { x: 50, y: 780 - i * 30, size: 16, font });
  });
  return Buffer.from(await pdf.save());
}

/**
 * The card check (docs/product.md, "Card check"): a card whose passport number differs from the order is
 * stored but its mail is refused, the field shows red beside the card, and a Manager releases it with a
 * reason.
 */
test('a card with a wrong passport number is not mailed, shows red, and a Manager releases it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, 'Team');
  const order = await makeOrder(page.request, {
    passport_number: 'E2E7654321',
    last_name: 'Checker',
    first_name: 'Carla',
    processing_date: todayIso(),
  });
  const detailUrl = `/admin/view-order/${encodeOrderId(order.orderId)}`;
  await page.goto(detailUrl);
  const upload = page.getByRole('region', { name: 'Upload Document' });
  await upload.getByLabel('PDF or image').setInputFiles({
    name: 'card.pdf',
    mimeType: 'application/pdf',
    buffer: await cardPdf(order.orderId, 'XK9999999'),
  });
  await upload.getByRole('button', { name: 'Submit (AWS)' }).click();

  // The mail is refused, naming the field.
  const refusal = page.locator('.Toastify__toast').filter({ hasText: 'does not match' });
  await expect(refusal).toContainText(`The card does not match order ${order.orderId}`, { timeout: 30_000 });
  await expect(refusal).toContainText('It was not sent.');

  // Beside the card: the passport number red with both values.
  const check = page.getByTestId('card-check');
  await expect(check).toContainText('blocked — the card is not sent');
  const passport = check.locator('tr[data-field="passport_number"]');
  await expect(passport).toHaveAttribute('data-status', 'mismatch');
  await expect(passport.locator('td').nth(1)).toHaveClass(/text-danger/);
  await expect(passport).toContainText('XK9999999');
  await expect(passport).toContainText('E2E7654321');
  // The Team member may not release it.
  await expect(check.getByRole('button', { name: 'Release the card' })).toHaveCount(0);

  // A Manager releases it with a reason.
  const managerContext = await browser.newContext();
  const manager = await managerContext.newPage();
  await loginAs(manager, 'Manager');
  await manager.goto(detailUrl);
  const managerCheck = manager.getByTestId('card-check');
  await expect(managerCheck).toContainText('blocked — the card is not sent');
  await managerCheck
    .getByLabel('Release this card anyway — reason')
    .fill('Passport renewed, checked by phone');
  await managerCheck.getByRole('button', { name: 'Release the card' }).click();
  await expect(manager.locator('.Toastify__toast').filter({ hasText: 'The card is released' })).toBeVisible();
  await expect(managerCheck).toContainText('Released by Demo Manager: Passport renewed, checked by phone');
  await expect(managerCheck).toContainText('released');
  await managerContext.close();
});

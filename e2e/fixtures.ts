import { test as base, expect, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export type DemoRole = 'Admin' | 'Manager' | 'Team' | 'Telecaller' | 'Night Staff';
export const DEMO_EMAILS: Record<DemoRole, string> = {
  Admin: 'admin@demo.test',
  Manager: 'manager@demo.test',
  Team: 'team@demo.test',
  Telecaller: 'telecaller@demo.test',
  'Night Staff': 'night@demo.test',
};
export const DEMO_PASSWORD = 'demo-password';

/** Signs in through the API and stores the session the way the SPA does (localStorage `user`). */
export async function loginAs(page: Page, role: DemoRole): Promise<string> {
  const res = await page.request.post('/api/admin/admin-login', {
    data: { email: DEMO_EMAILS[role], password: DEMO_PASSWORD },
  });
  expect(res.ok()).toBeTruthy();
  const token = (await res.json()).jwtToken as string;
  await page.addInitScript((t) => localStorage.setItem('user', JSON.stringify({ accessToken: t })), token);
  return token;
}

export const test = base;
export { expect };

/** A one-page PDF with a line of text: an approved card to upload. */
export async function approvedPdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 20, font });
  return Buffer.from(await pdf.save());
}

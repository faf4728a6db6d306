import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A real PDF with a marker text on each page (tests check it is embedded and attached). */
export async function samplePdf(marker: string, pages = 2): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  // Every sample is a file of its own: the card check calls the same bytes on two orders a duplicate.
  pdf.setKeywords([randomUUID()]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${marker} page ${i}`, { x: 50, y: 780, size: 18, font });
  }
  return Buffer.from(await pdf.save());
}

/** The smallest valid PNG (1×1). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

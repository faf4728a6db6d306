import { PDFDocument } from 'pdf-lib';
import { move } from 'piscina';
import type { DefencePackDetails } from '../../shared/contracts/defence-pack.js';
import type { OrderFields } from '../../shared/contracts/order-detail.js';
import { type EmbeddedDocument, renderDefencePack } from './defence-pack.js';
import { renderInvoicePdf } from './invoice.js';
import { type CardReading, passportPictures, readCard } from './read-card.js';

/** The jobs a PDF worker thread does: everything that parses or lays out a PDF. */
export type PdfTask =
  | { kind: 'defence-pack'; evidence: DefencePackDetails; document: EmbeddedDocument | null }
  | { kind: 'invoice'; order: OrderFields; issuedAt: Date }
  | { kind: 'count-pages'; bytes: Uint8Array }
  | { kind: 'read-card'; bytes: Uint8Array; mimeType: string }
  | { kind: 'passport-pictures'; bytes: Uint8Array; mimeType: string };

export interface PdfTaskResult {
  'defence-pack': Uint8Array;
  invoice: Uint8Array;
  /** null: the PDF cannot be read. */
  'count-pages': number | null;
  /** null: the file cannot be read at all. */
  'read-card': CardReading | null;
  /** null: the file cannot be decoded. */
  'passport-pictures': { band: Uint8Array; whole: Uint8Array } | null;
}

/** Worker-thread entry (piscina): runs one task; PDFs go back to the main thread without a copy. */
export default async function runPdfTask(task: PdfTask): Promise<unknown> {
  switch (task.kind) {
    case 'defence-pack':
      return move(await renderDefencePack(task.evidence, task.document));
    case 'invoice':
      return move(await renderInvoicePdf(task.order, task.issuedAt));
    case 'count-pages':
      try {
        const pdf = await PDFDocument.load(task.bytes, { ignoreEncryption: true, updateMetadata: false });
        return pdf.getPageCount();
      } catch {
        return null;
      }
    case 'read-card':
      try {
        return await readCard(task.bytes, task.mimeType);
      } catch {
        return null;
      }
    case 'passport-pictures':
      try {
        return await passportPictures(task.bytes, task.mimeType);
      } catch {
        return null;
      }
  }
}

import { parentPort, workerData } from 'node:worker_threads';
import { PDFDocument, StandardFonts } from 'pdf-lib';
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

/** What the worker receives (worker-pool.ts): the task, and the number it reports when it begins it. */
export interface PdfTaskMessage {
  task: PdfTask;
  startedToken: number;
}

/** Posted on the parent port when a task begins: its time limit starts then. */
export interface PdfTaskStarted {
  pdfTaskStarted: number;
}

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

/**
 * A warm worker (warmPdfWorkers) reads a small card before its first task: a page of text with a code
 * picture and a page with a drawn code-less box, so pdfjs, its worker code, the fonts, the canvas
 * module and jsQR are loaded and compiled before a real card waits for them. A failure here only
 * leaves the worker cold.
 */
async function warmUp(): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([595, 842]);
  first.drawText('Surname: WARM', { x: 50, y: 780, size: 12, font });
  const { default: QRCode } = await import('qrcode');
  const png = await QRCode.toBuffer('{"surname":"WARM"}', { margin: 2, scale: 4 });
  first.drawImage(await pdf.embedPng(png), { x: 350, y: 450, width: 180, height: 180 });
  pdf.addPage([595, 842]).drawRectangle({ x: 50, y: 50, width: 100, height: 100 });
  await readCard(await pdf.save(), 'application/pdf');
}

if ((workerData as { warm?: boolean } | undefined)?.warm) await warmUp().catch(() => undefined);

/**
 * Worker-thread entry (piscina): runs one task; PDFs go back to the main thread without a copy. It
 * first says it has begun, so the task's time limit starts now (worker-pool.ts).
 */
export default async function runPdfTask({ task, startedToken }: PdfTaskMessage): Promise<unknown> {
  parentPort?.postMessage({ pdfTaskStarted: startedToken } satisfies PdfTaskStarted);
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

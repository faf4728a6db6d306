import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { PDFDocument } from 'pdf-lib';
import type { DefencePackDetails } from '../../shared/contracts/defence-pack.js';
import { imageDimensions, MAX_IMAGE_PIXELS, MAX_PDF_PAGES, megapixels } from './document-limits.js';
import { A4, PdfWriter } from './writer.js';

dayjs.extend(utc);

const at = (value: string | null | undefined) =>
  value ? dayjs.utc(value).format('YYYY-MM-DD HH:mm:ss [UTC]') : '-';

export interface EmbeddedDocument {
  bytes: Uint8Array;
  mimeType: string;
}

type OrderKey = keyof DefencePackDetails['order'];
/** An order field as a pack shows it: after an erasure an erased field reads "erased ...", not "-". */
type Kept = (key: OrderKey, value?: unknown) => unknown;

/** Application fields in the order detail's screen order, for Pack 2's "application as submitted". */
const APPLICATION_FIELDS: [string, keyof DefencePackDetails['order']][] = [
  ['Email', 'email'],
  ['Re-entered email', 're_enter_email'],
  ['Processing mode', 'processing_mode'],
  ['Landing domain', 'landing_domain'],
  ['Arrival date', 'arrival_date'],
  ['Resident of Aruba', 'resident_check'],
  ['Passport number', 'passport_number'],
  ['Passport expiration', 'passport_expiration'],
  ['Last name', 'last_name'],
  ['First name', 'first_name'],
  ['Nationality', 'nationality'],
  ['Date of birth', 'date_of_birth'],
  ['Gender', 'sex'],
  ['Country of birth', 'country_of_birth'],
  ['Country of departure', 'country_of_departure'],
  ['Travel mode', 'travel_mode'],
  ['Airline', 'airline'],
  ['Flight number', 'flight_number'],
  ['Departure date from Aruba', 'departure_date'],
  ['Vessel name', 'vessel_name'],
  ['Country of residence', 'country_of_residence'],
  ['Zip/postal code', 'zip_code'],
  ['State', 'state'],
  ['City', 'city'],
  ['Address', 'address'],
  ['House/apartment number', 'residence_number'],
  ['Occupation', 'occupation'],
  ['Purpose of visit', 'purpose_of_visit'],
  ['Dual citizenship', 'dual_citizenship'],
  ['Phone code', 'phone_code'],
  ['Telephone number', 'telephone_number'],
  ['Prior visits to Aruba', 'prior_visits'],
  ['Accommodation', 'place_of_stay'],
  ['Accommodation name', 'name_of_place_of_stay'],
  ['Other accommodation name', 'other_hotel_name'],
  ['Local address', 'local_address'],
  ['House number', 'house_number'],
];

/** The order fields an erasure empties (or replaces, for the e-mail address). */
const ERASED_ORDER_FIELDS = new Set<OrderKey>([
  'email',
  're_enter_email',
  'passport_number',
  'passport_expiration',
  'date_of_birth',
  'phone_code',
  'telephone_number',
  'address',
  'residence_number',
  'zip_code',
  'city',
  'state',
  'local_address',
  'house_number',
  'occupation',
  'flight_number',
  'vessel_name',
  'name_of_place_of_stay',
  'other_hotel_name',
  'transaction_id',
  'merchant_name',
]);

/**
 * Defence Pack 1 (proof of delivery) or 2 (full case file), see docs/product.md: A4, sections in the order the
 * case happened, every list oldest first, and the approved document itself at the end.
 */
export async function renderDefencePack(
  e: DefencePackDetails,
  doc: EmbeddedDocument | null,
): Promise<Uint8Array> {
  const o = e.order;
  const erasure = e.erasure ?? null;
  // After an erasure the order keeps initials and money facts; an erased field reads "erased", not "-".
  const erasedMark = erasure ? `erased ${at(erasure.erased_at)}` : null;
  const kept: Kept = (key, value = o[key]) =>
    erasedMark && ERASED_ORDER_FIELDS.has(key) && (value === null || value === '' || key === 'email')
      ? erasedMark
      : value;
  const label =
    e.defencePackType === 1 ? 'Defence Pack 1 - Proof of delivery' : 'Defence Pack 2 - Full case file';
  const w = await PdfWriter.create(`${label} - order ${o.order_id}`, `${label} - order ${o.order_id}`);
  w.title(label);
  w.paragraph(`Order ${o.order_id} - generated ${at(e.generated_at)}`, 10);
  if (erasure) writeErasure(w, erasure);
  writeOrderAndTransaction(w, o, kept);

  let section = 3;
  if (e.defencePackType === 2) {
    w.heading(`${section++}. Application as submitted`);
    for (const [name, key] of APPLICATION_FIELDS) w.field(name, kept(key));
  }
  if (e.submission) {
    w.heading(`${section++}. Submitted to the government`);
    writeSubmission(w, e.submission, erasedMark);
  }
  w.heading(`${section++}. Approved document`);
  writeDocumentFacts(w, e);
  w.heading(`${section++}. ${e.defencePackType === 1 ? 'Document e-mails' : 'E-mails'}`);
  writeMails(w, e);
  w.heading(`${section++}. Download history`);
  writeDownloads(w, e);
  if (e.defencePackType === 2) {
    w.heading(`${section++}. Status history`);
    const history = e.statusHistory ?? [];
    if (history.length === 0) w.paragraph('No status changes.');
    for (const h of history) w.field(at(h.create_ts), h.text, 9);
  }

  w.heading(`${section++}. The approved document`);
  await appendDocument(w, doc);
  return w.doc.save();
}

/** The notice at the top of an erased order's pack: when, by whom, what and why. */
function writeErasure(w: PdfWriter, erasure: NonNullable<DefencePackDetails['erasure']>): void {
  w.heading('Personal data erased');
  w.paragraphBold(
    `The personal data of this order was erased on ${at(erasure.erased_at)} ${
      erasure.by ? `by ${erasure.by}` : 'by the retention policy'
    }.`,
  );
  w.field('Erased', erasure.erased);
  if (erasure.reason) w.field('Reason', erasure.reason);
  w.paragraph(
    'The order, its status history and its money facts are kept as they were; names show as initials and each erased field reads "erased".',
    9,
  );
}

/** Sections 1 and 2: the order and its customer, the transaction. */
function writeOrderAndTransaction(w: PdfWriter, o: DefencePackDetails['order'], kept: Kept): void {
  w.heading('1. Order and customer');
  w.field('Order ID', o.order_id);
  w.field('Order placed', at(o.created_at));
  w.field('Customer', `${o.first_name} ${o.last_name}`);
  w.field('Email', kept('email'));
  w.field(
    'Phone',
    kept('telephone_number', o.telephone_number ? `+${o.phone_code ?? ''} ${o.telephone_number}` : null) ??
      '-',
  );
  w.field('Passport number', kept('passport_number'));
  w.field('Nationality', o.nationality);
  w.field('Date of birth', kept('date_of_birth'));
  w.field('Arrival date', o.arrival_date);
  w.field('Processing mode', o.processing_mode);
  w.field('Current status', o.process_status);

  w.heading('2. Transaction');
  w.field('Transaction ID', kept('transaction_id'));
  w.field('Merchant', kept('merchant_name'));
  w.field('Amount', `${o.amount} ${o.currency}`);
  w.field('Paid on', at(o.created_at));
}

/** What was submitted to the government, when and by which role. */
function writeSubmission(
  w: PdfWriter,
  submission: NonNullable<DefencePackDetails['submission']>,
  erasedMark: string | null,
): void {
  w.field('Submitted', at(submission.submitted_at));
  // Staff names are never part of a pack: the role says who submitted.
  w.field(
    'Submitted by',
    submission.submitted_by_role ? `our staff (${submission.submitted_by_role})` : 'our staff',
  );
  w.field('Government reference', submission.government_reference ?? '-');
  for (const f of submission.fields) w.field(f.label, erasedMark && !f.value ? erasedMark : f.value || '-');
}

/** The approved document's facts (file, type, size, upload) and a card check's release. */
function writeDocumentFacts(w: PdfWriter, e: DefencePackDetails): void {
  if (e.document) {
    w.field('File', e.document.file1);
    w.field('Type', e.document.mime_type);
    w.field('Size', `${e.document.size_bytes} bytes`);
    w.field('Uploaded', at(e.document.create_ts));
    w.field('Uploaded by', e.document.uploaded_by);
  } else {
    w.paragraph('No document has been uploaded for this order.');
  }
  if (e.cardRelease) {
    w.field(
      'Card check',
      `released by a Manager or Admin on ${at(e.cardRelease.at)}: ${e.cardRelease.reason}`,
    );
  }
}

/** Each mail sent, its delivery attempts and (Pack 2) what it said. */
function writeMails(w: PdfWriter, e: DefencePackDetails): void {
  if (e.mails.length === 0) w.paragraph('No e-mail has been sent for this order.');
  // Pack 2: what each mail said, as the customer received it.
  const contentOf = (mailId: number): [string, unknown][] => {
    const c = e.mailContents?.find((x) => x.mail_id === mailId);
    return c
      ? [
          ['Subject', c.subject],
          ['Content', c.text],
        ]
      : [];
  };
  e.mails.forEach((m, i) => {
    const tries = e.mailAttempts.filter((a) => a.mail_id === m.id);
    w.entry(`${i + 1}. ${at(m.create_ts)} - ${m.kind}${m.remainder_mail ? ' (reminder)' : ''}`, [
      ['To', m.to_email],
      ['Provider', m.mail_service_provider],
      ['Result', m.status],
      ['Delivered', at(m.sent_ts)],
      ['Message ID', m.message_id],
      ['Attachment', m.uploadDoc],
      ...contentOf(m.id),
      ...tries.map((a): [string, unknown] => [
        `Attempt ${a.attempt}`,
        `${at(a.create_ts)} via ${a.provider}: ${a.ok ? `accepted ${a.message_id ?? ''}` : `failed (${a.error ?? ''})`}`,
      ]),
    ]);
  });
}

/** Each download of the document by the customer. */
function writeDownloads(w: PdfWriter, e: DefencePackDetails): void {
  if (e.downloads.length === 0) w.paragraph('The customer has not downloaded the document.');
  e.downloads.forEach((d, i) => {
    w.entry(`${i + 1}. ${at(d.create_ts)}`, [
      ['IP address', d.ip],
      ['Location', d.location],
      ['Device', [d.device, d.device_type].filter(Boolean).join(' / ') || '-'],
      ['Browser', d.browser],
      ['OS', d.os],
      ['Time zone', d.timezone],
      ['File', d.file_name],
    ]);
  });
}

async function appendDocument(w: PdfWriter, doc: EmbeddedDocument | null): Promise<void> {
  if (!doc) {
    w.paragraph('No document file is available.');
    return;
  }
  if (doc.mimeType === 'application/pdf') {
    try {
      const source = await PDFDocument.load(doc.bytes, { ignoreEncryption: true });
      const count = source.getPageCount();
      // Documents stored before uploads were limited may be page bombs: they are attached, not copied.
      if (count > MAX_PDF_PAGES) {
        w.paragraph(
          `The document has ${count} pages, more than the ${MAX_PDF_PAGES} a pack copies in; it is attached to this PDF as a file.`,
        );
      } else {
        const pages = await w.doc.copyPages(source, source.getPageIndices());
        w.paragraph(`The ${pages.length} page(s) of the document follow.`);
        for (const page of pages) w.doc.addPage(page);
        return;
      }
    } catch {
      w.paragraph('The document could not be embedded as pages; it is attached to this PDF as a file.');
    }
  } else if (doc.mimeType === 'image/png' || doc.mimeType === 'image/jpeg') {
    const size = imageDimensions(doc.bytes);
    // pdf-lib decodes a PNG into memory: an image above the upload limit is attached, never decoded.
    if (!size || size.width * size.height > MAX_IMAGE_PIXELS) {
      w.paragraph(
        size
          ? `The image is ${size.width} x ${size.height} pixels (${megapixels(size)} megapixels), above what a pack draws; it is attached to this PDF as a file.`
          : 'The image could not be read; it is attached to this PDF as a file.',
      );
    } else {
      try {
        const image =
          doc.mimeType === 'image/png' ? await w.doc.embedPng(doc.bytes) : await w.doc.embedJpg(doc.bytes);
        w.paragraph('The document image follows on the next page.');
        const page = w.doc.addPage(A4);
        const margin = 40;
        const scale = Math.min((A4[0] - 2 * margin) / image.width, (A4[1] - 2 * margin) / image.height, 1);
        const width = image.width * scale;
        const height = image.height * scale;
        page.drawImage(image, { x: (A4[0] - width) / 2, y: A4[1] - margin - height, width, height });
        return;
      } catch {
        w.paragraph('The image could not be drawn; it is attached to this PDF as a file.');
      }
    }
  } else {
    w.paragraph(
      'This image format cannot be drawn in a PDF; the document is attached to this PDF as a file.',
    );
  }
  await w.doc.attach(doc.bytes, `approved-document.${doc.mimeType.split('/')[1] ?? 'bin'}`, {
    mimeType: doc.mimeType,
    description: 'The approved document as uploaded',
  });
}

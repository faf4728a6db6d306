import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** A4 in PDF points. */
export const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const GREY = rgb(0.35, 0.35, 0.35);

/**
 * The standard PDF fonts only know WinAnsi: accents are folded (é → e) and anything else becomes "?",
 * so a customer's name in another script can never make a PDF fail.
 */
export function pdfSafe(value: unknown, font: PDFFont): string {
  const text = value === null || value === undefined ? '' : String(value);
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    if (isEncodable(font, ch)) {
      out += ch;
      continue;
    }
    const folded = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += folded && [...folded].every((c) => isEncodable(font, c)) ? folded : '?';
  }
  return out;
}

const encodable = new Map<string, boolean>();
function isEncodable(font: PDFFont, ch: string): boolean {
  let known = encodable.get(ch);
  if (known === undefined) {
    try {
      font.encodeText(ch);
      known = true;
    } catch {
      known = false;
    }
    encodable.set(ch, known);
  }
  return known;
}

/** Writes top-down text on A4 pages, breaking pages and wrapping lines as needed. */
export class PdfWriter {
  page!: PDFPage;
  y = 0;
  private constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    private readonly footer: string,
  ) {}

  static async create(title: string, footer: string): Promise<PdfWriter> {
    const doc = await PDFDocument.create();
    doc.setTitle(title);
    doc.setProducer('ED-Card');
    doc.setCreator('ED-Card');
    const w = new PdfWriter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
      footer,
    );
    w.newPage();
    return w;
  }

  get width(): number {
    return A4[0] - 2 * MARGIN;
  }

  newPage(): void {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
    const n = this.doc.getPageCount();
    this.page.drawText(pdfSafe(`${this.footer} - page ${n}`, this.font), {
      x: MARGIN,
      y: 25,
      size: 8,
      font: this.font,
      color: GREY,
    });
  }

  private ensure(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** Splits text into lines that fit `width` at `size`, breaking long words too. */
  wrap(text: string, size: number, width: number, font: PDFFont = this.font): string[] {
    const lines: string[] = [];
    let line = '';
    const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
    for (const word of pdfSafe(text, font).split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (!fits(rest)) {
        let cut = rest.length - 1;
        while (cut > 1 && !fits(rest.slice(0, cut))) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    if (line || lines.length === 0) lines.push(line);
    return lines;
  }

  title(text: string): void {
    this.ensure(30);
    this.y -= 22;
    this.page.drawText(pdfSafe(text, this.bold), { x: MARGIN, y: this.y, size: 18, font: this.bold });
    this.y -= 10;
  }

  heading(text: string): void {
    this.ensure(40);
    this.y -= 20;
    this.page.drawText(pdfSafe(text, this.bold), { x: MARGIN, y: this.y, size: 13, font: this.bold });
    this.y -= 4;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.5,
      color: GREY,
    });
    this.y -= 6;
  }

  paragraph(text: string, size = 10, color = rgb(0, 0, 0)): void {
    for (const line of this.wrap(text, size, this.width)) {
      this.ensure(size + 4);
      this.y -= size + 3;
      this.page.drawText(line, { x: MARGIN, y: this.y, size, font: this.font, color });
    }
  }

  /** A label: value row; long values wrap under their column. */
  field(label: string, value: unknown, size = 10): void {
    const labelWidth = 150;
    const lines = this.wrap(
      value === null || value === undefined || value === '' ? '-' : String(value),
      size,
      this.width - labelWidth,
    );
    this.ensure(size + 4);
    lines.forEach((line, i) => {
      if (i > 0) this.ensure(size + 4);
      this.y -= size + 3;
      if (i === 0) {
        this.page.drawText(pdfSafe(label, this.bold), { x: MARGIN, y: this.y, size, font: this.bold });
      }
      this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y, size, font: this.font });
    });
  }

  /** A numbered entry: a bold first line, then its label/value rows. */
  entry(titleText: string, rows: [string, unknown][]): void {
    this.ensure(60);
    this.y -= 8;
    this.paragraphBold(titleText);
    for (const [label, value] of rows) this.field(label, value, 9);
  }

  paragraphBold(text: string, size = 10): void {
    for (const line of this.wrap(text, size, this.width, this.bold)) {
      this.ensure(size + 4);
      this.y -= size + 3;
      this.page.drawText(line, { x: MARGIN, y: this.y, size, font: this.bold });
    }
  }

  gap(points = 8): void {
    this.y -= points;
  }
}

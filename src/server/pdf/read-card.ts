import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import jsQRModule from 'jsqr';

/**
 * What a card says, read on a PDF worker thread (never on the request thread): the text of every page
 * (pdfjs) and the text of every QR code, each page rendered at about 150 dpi and decoded with jsQR. An
 * image card (PNG/JPEG/WebP) has no text layer: only its QR codes are read.
 */
export interface CardReading {
  /** The text of each page, lines separated by "\n". */
  pages: string[];
  /** The text of every QR code found, in page order. */
  qr: string[];
}

/** 150 dpi: a printed QR code's modules are several pixels wide, a page stays near 9 MB of pixels. */
const RENDER_SCALE = 150 / 72;
/** Pages rendered for QR codes (a card has one or two); the text is read from every page. */
const MAX_RENDERED_PAGES = 10;
/** Codes decoded per page at most: each found code is blanked and the page scanned again. */
const MAX_CODES_PER_PAGE = 4;
/** No page is rendered larger than this (a huge page size is an attack, not a card). */
const MAX_RENDER_PIXELS = 12_000_000;
/** Text kept per page: a card is a page of labels and values. */
const MAX_PAGE_TEXT = 20_000;

const require = createRequire(import.meta.url);
// jsqr is CommonJS with `exports.default`: typed as the module, called as its default.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule }).default ??
  jsQRModule) as unknown as typeof import('jsqr').default;
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = `${pathToFileURL(path.join(pdfjsRoot, 'standard_fonts')).href}/`;

type Pixels = { data: Uint8ClampedArray; width: number; height: number };

/** Every QR code of a picture: decode, blank the code's box, decode again. */
function decodeCodes(pixels: Pixels): string[] {
  const found: string[] = [];
  for (let i = 0; i < MAX_CODES_PER_PAGE; i++) {
    const code = jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: 'dontInvert' });
    if (!code) break;
    found.push(code.data);
    const xs = [
      code.location.topLeftCorner.x,
      code.location.topRightCorner.x,
      code.location.bottomLeftCorner.x,
      code.location.bottomRightCorner.x,
    ];
    const ys = [
      code.location.topLeftCorner.y,
      code.location.topRightCorner.y,
      code.location.bottomLeftCorner.y,
      code.location.bottomRightCorner.y,
    ];
    const pad = 8;
    const x0 = Math.max(0, Math.floor(Math.min(...xs)) - pad);
    const x1 = Math.min(pixels.width, Math.ceil(Math.max(...xs)) + pad);
    const y0 = Math.max(0, Math.floor(Math.min(...ys)) - pad);
    const y1 = Math.min(pixels.height, Math.ceil(Math.max(...ys)) + pad);
    for (let y = y0; y < y1; y++)
      pixels.data.fill(255, (y * pixels.width + x0) * 4, (y * pixels.width + x1) * 4);
  }
  return found;
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
  transform?: number[];
}

/** The page's text as lines: items on one baseline joined with a space, a new line where the text says so. */
function pageText(items: TextItemLike[]): string {
  let out = '';
  let lastY: number | null = null;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const y = item.transform?.[5] ?? null;
    if (lastY !== null && y !== null && Math.abs(y - lastY) > 2 && !out.endsWith('\n')) out += '\n';
    else if (out && !out.endsWith('\n') && !out.endsWith(' ') && item.str) out += ' ';
    out += item.str;
    if (item.hasEOL) out += '\n';
    lastY = y;
    if (out.length > MAX_PAGE_TEXT) break;
  }
  return out.slice(0, MAX_PAGE_TEXT);
}

async function readPdf(bytes: Uint8Array): Promise<CardReading> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({
    // pdfjs takes ownership of the buffer it is given: a copy keeps the caller's bytes intact.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    standardFontDataUrl: STANDARD_FONTS,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const reading: CardReading = { pages: [], qr: [] };
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      reading.pages.push(pageText(content.items as TextItemLike[]));
      if (n <= MAX_RENDERED_PAGES) {
        let viewport = page.getViewport({ scale: RENDER_SCALE });
        const pixels = viewport.width * viewport.height;
        if (pixels > MAX_RENDER_PIXELS)
          viewport = page.getViewport({ scale: RENDER_SCALE * Math.sqrt(MAX_RENDER_PIXELS / pixels) });
        const width = Math.ceil(viewport.width);
        const height = Math.ceil(viewport.height);
        // pdfjs's own canvas factory: its canvas module renders what pdfjs draws.
        const factory = pdf.canvasFactory as {
          create(w: number, h: number): unknown;
          destroy(target: unknown): void;
        };
        const target = factory.create(width, height) as {
          canvas: unknown;
          context: {
            fillStyle: string;
            fillRect(...a: number[]): void;
            getImageData(...a: number[]): Pixels;
          };
        };
        target.context.fillStyle = '#ffffff';
        target.context.fillRect(0, 0, width, height);
        await page.render({ canvas: null, canvasContext: target.context as never, viewport }).promise;
        reading.qr.push(...decodeCodes(target.context.getImageData(0, 0, width, height)));
        factory.destroy(target);
      }
      page.cleanup();
    }
  } finally {
    await pdf.destroy();
  }
  return reading;
}

async function readImage(bytes: Uint8Array): Promise<CardReading> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes));
  const scale = Math.min(1, Math.sqrt(MAX_RENDER_PIXELS / (image.width * image.height)));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const drawing = canvas.getContext('2d');
  drawing.fillStyle = '#ffffff';
  drawing.fillRect(0, 0, width, height);
  drawing.drawImage(image, 0, 0, width, height);
  const { data } = drawing.getImageData(0, 0, width, height);
  return { pages: [], qr: decodeCodes({ data, width, height }) };
}

/** Reads a card: PDF text and codes, or an image's codes. Throws when the file cannot be read at all. */
export async function readCard(bytes: Uint8Array, mimeType: string): Promise<CardReading> {
  return mimeType === 'application/pdf' ? readPdf(bytes) : readImage(bytes);
}

/** The widest picture handed to OCR: an MRZ line stays legible, the OCR time stays bounded. */
const MAX_SCAN_WIDTH = 1800;

type DrawableCanvas = {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    fillStyle: string;
    fillRect(...a: number[]): void;
    drawImage(image: unknown, ...a: number[]): void;
  };
  toBuffer(type: 'image/png'): Buffer;
};

/** The page or photo scaled to at most MAX_SCAN_WIDTH wide, and its bottom band (where the MRZ is). */
function scanPictures(
  source: unknown,
  width: number,
  height: number,
  create: (w: number, h: number) => DrawableCanvas,
) {
  const scale = Math.min(1, MAX_SCAN_WIDTH / width, Math.sqrt(MAX_RENDER_PIXELS / (width * height)));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const whole = create(w, h);
  const drawing = whole.getContext('2d');
  drawing.fillStyle = '#ffffff';
  drawing.fillRect(0, 0, w, h);
  drawing.drawImage(source, 0, 0, w, h);
  const bandTop = Math.floor(h * 0.6);
  const band = create(w, h - bandTop);
  const bandDrawing = band.getContext('2d');
  bandDrawing.fillStyle = '#ffffff';
  bandDrawing.fillRect(0, 0, w, h - bandTop);
  bandDrawing.drawImage(whole, 0, bandTop, w, h - bandTop, 0, 0, w, h - bandTop);
  return {
    band: new Uint8Array(band.toBuffer('image/png')),
    whole: new Uint8Array(whole.toBuffer('image/png')),
  };
}

/**
 * A passport scan prepared for OCR on a PDF worker: the photo (or the first page of a PDF, rendered at
 * 150 dpi) decoded, scaled and cut to its bottom band, both as PNG. Decoding a hostile image is bounded
 * by the worker's heap and time like every PDF task.
 */
export async function passportPictures(
  bytes: Uint8Array,
  mimeType: string,
): Promise<{ band: Uint8Array; whole: Uint8Array }> {
  if (mimeType === 'application/pdf') {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      standardFontDataUrl: STANDARD_FONTS,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
    try {
      const page = await pdf.getPage(1);
      const viewport = page.getViewport({ scale: RENDER_SCALE });
      const factory = pdf.canvasFactory as {
        create(w: number, h: number): { canvas: DrawableCanvas; context: unknown };
      };
      const target = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvas: null, canvasContext: target.context as never, viewport }).promise;
      return scanPictures(
        target.canvas,
        target.canvas.width,
        target.canvas.height,
        (w, h) => factory.create(w, h).canvas,
      );
    } finally {
      await pdf.destroy();
    }
  }
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes));
  return scanPictures(
    image,
    image.width,
    image.height,
    (w, h) => createCanvas(w, h) as unknown as DrawableCanvas,
  );
}

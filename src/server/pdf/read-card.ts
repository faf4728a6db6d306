import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import jsQRModule from 'jsqr';

/**
 * What a card says, read on a PDF worker thread (never on the request thread): the text of every page
 * (pdfjs) and the text of every QR code, decoded with jsQR. A page's embedded pictures are tried first,
 * at their own pixels (a card's code is a picture in nearly every card generator); a page whose pictures
 * hold no code (a code drawn as vector shapes, a scanned page too large to try) is rendered at about
 * 150 dpi and decoded. An image card (PNG/JPEG/WebP) has no text layer: only its QR codes are read.
 */
export interface CardReading {
  /** The text of each page, lines separated by "\n". */
  pages: string[];
  /** The text of every QR code found, in page order. */
  qr: string[];
}

/** 150 dpi: a printed QR code's modules are several pixels wide, a page stays near 9 MB of pixels. */
const RENDER_SCALE = 150 / 72;
/** Pages read for QR codes (a card has one or two); the text is read from every page. */
const MAX_CODE_PAGES = 10;
/** Codes decoded per page at most: each found code is blanked and the page scanned again. */
const MAX_CODES_PER_PAGE = 4;
/** No page is rendered larger than this (a huge page size is an attack, not a card). */
const MAX_RENDER_PIXELS = 12_000_000;
/** Text kept per page: a card is a page of labels and values. */
const MAX_PAGE_TEXT = 20_000;
/** Pictures of a page tried for codes before it is rendered. */
const MAX_PAGE_PICTURES = 8;
/**
 * Pixels of a page's pictures decoded at most (about an A4 page at 150 dpi): a larger picture, such as
 * a scanned page, costs more to decode than the page rendered, so the render reads it.
 */
const MAX_PICTURE_PIXELS = 2_500_000;
/** A picture narrower than a version-1 code (21 modules) cannot hold one. */
const MIN_CODE_SIDE = 21;
/** A small picture is enlarged (nearest pixel) to about this side: jsQR needs a few pixels a module. */
const MIN_DECODE_SIDE = 300;

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

/** A decoded picture as pdfjs hands it over: 1-bit grey, RGB or RGBA rows, top row first. */
interface PdfPicture {
  width?: number;
  height?: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

/** pdfjs's ImageKind values. */
const GRAYSCALE_1BPP = 1;
const RGB_24BPP = 2;
const RGBA_32BPP = 3;

/**
 * A picture as RGBA on white (transparent parts white, as on paper), enlarged by a whole factor when
 * small; null when it cannot hold a code or is above the pixel budget left.
 */
function picturePixels(picture: PdfPicture | null, budget: number): Pixels | null {
  const { width = 0, height = 0, kind, data } = picture ?? {};
  if (!data || width < MIN_CODE_SIDE || height < MIN_CODE_SIDE) return null;
  const factor = Math.min(8, Math.max(1, Math.ceil(MIN_DECODE_SIDE / Math.min(width, height))));
  const w = width * factor;
  const h = height * factor;
  if (w * h > budget) return null;
  const out = new Uint8ClampedArray(w * h * 4);
  const rowBytes = (width + 7) >> 3;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let r: number;
      let g: number;
      let b: number;
      if (kind === GRAYSCALE_1BPP) {
        r = g = b = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
      } else if (kind === RGB_24BPP) {
        r = data[i * 3]!;
        g = data[i * 3 + 1]!;
        b = data[i * 3 + 2]!;
      } else if (kind === RGBA_32BPP) {
        const a = data[i * 4 + 3]! / 255;
        r = data[i * 4]! * a + 255 * (1 - a);
        g = data[i * 4 + 1]! * a + 255 * (1 - a);
        b = data[i * 4 + 2]! * a + 255 * (1 - a);
      } else {
        return null;
      }
      for (let dy = 0; dy < factor; dy++) {
        let o = ((y * factor + dy) * w + x * factor) * 4;
        for (let dx = 0; dx < factor; dx++, o += 4) {
          out[o] = r;
          out[o + 1] = g;
          out[o + 2] = b;
          out[o + 3] = 255;
        }
      }
    }
  }
  return { data: out, width: w, height: h };
}

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfjsModule['getDocument']>['promise']>['getPage']>>;

/** The codes in the pictures a page paints (each picture once, within the pixel budget). */
async function pictureCodes(pdfjs: PdfjsModule, page: PdfPage): Promise<string[]> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const seen = new Set<string>();
  const codes: string[] = [];
  let budget = MAX_PICTURE_PIXELS;
  let tried = 0;
  for (let i = 0; i < fnArray.length && tried < MAX_PAGE_PICTURES; i++) {
    const op = fnArray[i];
    let picture: PdfPicture | null = null;
    if (op === pdfjs.OPS.paintImageXObject || op === pdfjs.OPS.paintImageXObjectRepeat) {
      const id = (argsArray[i] as unknown[])[0];
      if (typeof id !== 'string' || seen.has(id)) continue;
      seen.add(id);
      const objects = id.startsWith('g_') ? page.commonObjs : page.objs;
      // The operator list is complete when its pictures are decoded; `get` with a callback waits for one.
      picture = await new Promise<PdfPicture | null>((resolve) => objects.get(id, resolve));
    } else if (op === pdfjs.OPS.paintInlineImageXObject) {
      picture = (argsArray[i] as PdfPicture[])[0] ?? null;
    } else {
      continue;
    }
    tried++;
    const pixels = picturePixels(picture, budget);
    if (!pixels) continue;
    budget -= pixels.width * pixels.height;
    codes.push(...decodeCodes(pixels));
    if (codes.length >= MAX_CODES_PER_PAGE) break;
  }
  return codes.slice(0, MAX_CODES_PER_PAGE);
}

/** The codes of a page rendered at 150 dpi (at most MAX_RENDER_PIXELS). */
async function renderedCodes(pdf: { canvasFactory: unknown }, page: PdfPage): Promise<string[]> {
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
  try {
    target.context.fillStyle = '#ffffff';
    target.context.fillRect(0, 0, width, height);
    await page.render({ canvas: null, canvasContext: target.context as never, viewport }).promise;
    return decodeCodes(target.context.getImageData(0, 0, width, height));
  } finally {
    factory.destroy(target);
  }
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
      if (n <= MAX_CODE_PAGES) {
        const codes = await pictureCodes(pdfjs, page);
        reading.qr.push(...(codes.length ? codes : await renderedCodes(pdf, page)));
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

import { crc32, deflateSync } from 'node:zlib';

/**
 * Decompression and page bombs for the upload and Defence Pack tests: tiny files that claim huge work
 * (an 8000×8000 PNG is ~190 KB; a PDF of 20,000 empty pages ~2 MB).
 */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A black RGB PNG of any size; `frames` > 1 adds an acTL chunk (animated PNG). */
export function bombPng(width: number, height: number, frames = 1): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(frames, 0);
  const rows = deflateSync(Buffer.alloc((width * 3 + 1) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    ...(frames > 1 ? [pngChunk('acTL', actl)] : []),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The header of a baseline JPEG claiming width × height (no image data: the size is all it says). */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0, 0, 1, 0, 1, 0, 0,
  ]);
  const sof = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
  ]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A valid PDF (with its cross-reference table) of `pages` empty A4 pages. */
export function bombPdf(pages: number): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (text: string) => {
    offsets.push(length);
    parts.push(text);
    length += text.length;
  };
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  add('1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n');
  add(`2 0 obj<</Type/Pages/Count ${pages}/Kids[${kids}]>>endobj\n`);
  for (let i = 0; i < pages; i++)
    add(`${i + 3} 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\n`);
  const xref = length;
  let table = `xref\n0 ${pages + 3}\n0000000000 65535 f \n`;
  for (const offset of offsets) table += `${String(offset).padStart(10, '0')} 00000 n \n`;
  parts.push(table, `trailer<</Size ${pages + 3}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

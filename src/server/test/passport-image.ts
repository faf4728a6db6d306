import { createCanvas } from '@napi-rs/canvas';

/**
 * A passport data page drawn for the tests (nothing downloaded): header text, a photo frame, and the
 * machine-readable zone in a monospace font; optionally with noise and turned by a few degrees.
 */
export const SPECIMEN = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];

/** A deterministic pseudo-random sequence, so the noise is the same on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

export function passportImage(mrz: string[] | null, opts: { noise?: boolean; rotate?: number } = {}): Buffer {
  const w = 1250;
  const h = 880;
  const canvas = createCanvas(w, h);
  const drawing = canvas.getContext('2d');
  drawing.fillStyle = '#ffffff';
  drawing.fillRect(0, 0, w, h);
  drawing.translate(w / 2, h / 2);
  drawing.rotate(((opts.rotate ?? 0) * Math.PI) / 180);
  drawing.translate(-w / 2, -h / 2);
  drawing.fillStyle = '#f1ede4';
  drawing.fillRect(20, 20, w - 40, h - 40);
  drawing.fillStyle = '#333333';
  drawing.font = '30px "DejaVu Sans", "Liberation Sans", sans-serif';
  drawing.fillText('PASSPORT   PASSEPORT   UTOPIA', 60, 80);
  drawing.font = '22px "DejaVu Sans", "Liberation Sans", sans-serif';
  drawing.fillText('Surname / Nom: ERIKSSON', 420, 170);
  drawing.fillText('Given names / Prénoms: ANNA MARIA', 420, 220);
  drawing.fillText('Date of birth: 12 AUG 1974', 420, 270);
  drawing.strokeRect(60, 130, 300, 380);
  drawing.fillStyle = '#000000';
  drawing.font = '33px "DejaVu Sans Mono", "Liberation Mono", monospace';
  if (mrz) {
    drawing.fillText(mrz[0]!, 50, h - 150);
    drawing.fillText(mrz[1]!, 50, h - 90);
  } else {
    drawing.fillText('THIS IS A LETTER ABOUT A HOTEL BOOKING 2026', 50, h - 150);
    drawing.fillText('ROOM 12 ARRIVAL 12 MARCH DEPARTURE 19 MARCH', 50, h - 90);
  }
  drawing.setTransform(1, 0, 0, 1, 0, 0);
  if (opts.noise) {
    const next = random(42);
    const img = drawing.getImageData(0, 0, w, h);
    for (let i = 0; i < img.data.length; i += 4) {
      const n = (next() - 0.5) * 70;
      for (let c = 0; c < 3; c++) img.data[i + c] = Math.max(0, Math.min(255, img.data[i + c]! + n));
    }
    drawing.putImageData(img, 0, 0);
  }
  return canvas.toBuffer('image/png');
}

/** ICAO 9303 check digit: weights 7, 3, 1; digits as such, A–Z as 10–35, the filler as 0. */
export function mrzCheckDigit(s: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const v = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * weights[i % 3]!;
  }
  return String(sum % 10);
}

/** The two MRZ lines of a passport (TD3) with correct check digits. Dates as YYMMDD. */
export function mrzOf(p: {
  surname: string;
  given: string;
  number: string;
  country: string;
  birth: string;
  sex: 'M' | 'F';
  expiry: string;
}): string[] {
  const name = `${p.surname}<<${p.given.replace(/ /g, '<')}`;
  const line1 = `P<${p.country}${name}`.padEnd(44, '<').slice(0, 44);
  const number = p.number.padEnd(9, '<');
  const personal = '<'.repeat(14);
  const parts = [
    number + mrzCheckDigit(number),
    p.birth + mrzCheckDigit(p.birth),
    p.expiry + mrzCheckDigit(p.expiry),
    `${personal}0`,
  ];
  const line2 = `${parts[0]}${p.country}${parts[1]}${p.sex}${parts[2]}${parts[3]}${mrzCheckDigit(parts.join(''))}`;
  return [line1, line2];
}

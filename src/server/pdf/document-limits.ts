import { imageSize } from 'image-size';

/** The largest image accepted as an approved document (and drawn into a Defence Pack), in pixels. */
export const MAX_IMAGE_PIXELS = 25_000_000;
/** The most pages a PDF approved document may have (and that a Defence Pack copies in). */
export const MAX_PDF_PAGES = 50;

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Width and height from the image's header alone (nothing is decoded); null when unreadable. */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | null {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}

export const megapixels = ({ width, height }: ImageDimensions) => Math.round((width * height) / 100_000) / 10;

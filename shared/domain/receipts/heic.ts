import { PNG } from 'pngjs';

export const HEIC_TYPES = new Set(['image/heic', 'image/heif']);

/**
 * An iPhone photo (HEIC) as PNG: neither the OCR engine nor vision models read HEIC. The original
 * stays stored as it came; this copy is only read. Null when the file is not a decodable HEIC.
 */
export async function heicToPng(bytes: Buffer): Promise<Buffer | null> {
  let decoded: { width: number; height: number; data: Uint8ClampedArray };
  try {
    // libheif compiled to WebAssembly (no native build), loaded with the first photo rather than by every process at start.
    const { default: decodeHeic } = await import('heic-decode');
    decoded = await decodeHeic({ buffer: bytes });
  } catch {
    return null;
  }
  // A 12-megapixel photo reads no better than a 2000-pixel one, and costs far more to encode, OCR and upload.
  const { width, height, data } = shrinkRgba(decoded, MAX_SIDE);
  const png = new PNG({ width, height });
  png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return PNG.sync.write(png);
}

const MAX_SIDE = 2000;

/** RGBA pixels scaled down by the smallest whole factor that fits `maxSide`, each output pixel the mean of its block. */
export function shrinkRgba(img: { width: number; height: number; data: Uint8ClampedArray }, maxSide: number) {
  const f = Math.ceil(Math.max(img.width, img.height) / maxSide);
  if (f <= 1) return img;
  const width = Math.floor(img.width / f);
  const height = Math.floor(img.height / f);
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < f; dy++) for (let dx = 0; dx < f; dx++) sum += img.data[((y * f + dy) * img.width + (x * f + dx)) * 4 + c];
        out[(y * width + x) * 4 + c] = Math.round(sum / (f * f));
      }
    }
  }
  return { width, height, data: out };
}

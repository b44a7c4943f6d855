import { PNG } from 'pngjs';

// libheif compiled to WebAssembly: no native build, nothing to install beyond the npm package.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const decodeHeic: (input: { buffer: Buffer }) => Promise<{ width: number; height: number; data: Uint8ClampedArray }> = require('heic-decode');

export const HEIC_TYPES = new Set(['image/heic', 'image/heif']);

/**
 * An iPhone photo (HEIC) as PNG: neither the OCR engine nor vision models read HEIC. The original
 * stays stored as it came; this copy is only read. Null when the file is not a decodable HEIC.
 */
export async function heicToPng(bytes: Buffer): Promise<Buffer | null> {
  try {
    const { width, height, data } = await decodeHeic({ buffer: bytes });
    const png = new PNG({ width, height });
    png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return PNG.sync.write(png);
  } catch {
    return null;
  }
}

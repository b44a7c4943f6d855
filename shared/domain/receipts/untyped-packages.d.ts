// These packages ship no type declarations: what follows describes the parts the receipts code uses.

declare module 'heic-decode' {
  /** libheif compiled to WebAssembly: the primary image of a HEIC/HEIF file as RGBA pixels. */
  function decodeHeic(input: { buffer: Buffer }): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
  export = decodeHeic;
}

declare module '@tesseract.js-data/eng' {
  /** The English model as tesseract.js's createWorker options want it. */
  const eng: { code: string; langPath: string; gzip: boolean };
  export = eng;
}

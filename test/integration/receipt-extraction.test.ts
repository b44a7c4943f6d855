import { Jimp } from 'jimp';
import { heicReceipt, pdfReceipt, photoReceipt, webpReceipt } from '../fixtures/receipts';
import { startLlmFake } from '../fakes/llm';
import { createReceiptExtractor, UnreadableDocumentError } from '../../shared/domain/receipts/extractor';
import { createOcr } from '../../shared/domain/receipts/ocr';
import { createLlmClient } from '../../shared/providers/llm';
import { closeActivityDeps, createActivityDeps } from '../../activities';
import { createDb } from '../../shared/db/knex';
import { testConfig } from '../support/api';

const coffee = {
  merchant: 'Coffee Corner',
  date: '2026-07-01',
  items: [
    ['Latte', 4.8],
    ['Beans 1kg', 19],
  ] as Array<[string, number]>,
  vatRate: 19,
  currency: 'EUR',
};
const expected = { amount: 23.8, currency: 'EUR', date: '2026-07-01', merchant: 'Coffee Corner', taxAmount: 3.8, taxRate: 19 };

const ocr = createOcr();
afterAll(() => ocr.close());

describe('reading receipts without an LLM', () => {
  const extractor = createReceiptExtractor({ ocr });

  it('reads a PDF receipt from its text', async () => {
    expect(await extractor.extract(await pdfReceipt(coffee), 'application/pdf')).toEqual({
      method: 'pdf_text',
      fields: expected,
      text: expect.stringContaining('Beans 1kg 19.00'),
    });
  });

  it.each(['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const)(
    'reads a photographed receipt (%s) by OCR, offline',
    async (mimeType) => {
      const photo =
        mimeType === 'image/webp'
          ? await webpReceipt(coffee)
          : mimeType === 'image/heic'
            ? await heicReceipt(coffee)
            : await photoReceipt(coffee, mimeType);
      expect(await extractor.extract(photo, mimeType)).toEqual({
        method: 'ocr',
        fields: expected,
        text: expect.stringContaining('Total EUR 23.80'),
      });
    },
  );

  it('leaves every field empty for an image with no legible text, and reports one it cannot decode as unreadable', async () => {
    const noise = new Jimp({ width: 300, height: 200, color: 0xffffffff });
    noise.scan((x, y, idx) => {
      const v = (x * 7919 + y * 104_729) % 251;
      noise.bitmap.data[idx] = noise.bitmap.data[idx + 1] = noise.bitmap.data[idx + 2] = v;
    });
    const empty = { amount: null, currency: null, date: null, merchant: null, taxAmount: null, taxRate: null };
    expect(await extractor.extract(await noise.getBuffer('image/png'), 'image/png')).toMatchObject({ method: 'ocr', fields: empty });
    await expect(extractor.extract(Buffer.from('....ftypheic not really an image'), 'image/heic')).rejects.toBeInstanceOf(
      UnreadableDocumentError,
    );
    await expect(extractor.extract(Buffer.from('\x89PNG truncated'), 'image/png')).rejects.toBeInstanceOf(UnreadableDocumentError);
    await expect(extractor.extract(Buffer.from('PK zip'), 'application/zip')).rejects.toBeInstanceOf(UnreadableDocumentError);
  });

  it('reports a PDF that cannot be parsed as unreadable (the activity then keeps it for manual entry)', async () => {
    await expect(extractor.extract(Buffer.from('%PDF-1.4 truncated'), 'application/pdf')).rejects.toBeInstanceOf(UnreadableDocumentError);
  });
});

describe('reading receipts with an LLM (OpenAI-compatible)', () => {
  it('asks the model with the text and the image, and uses its answer field by field', async () => {
    const llm = await startLlmFake('sk-test', () => ({
      amount: 23.8,
      currency: 'eur',
      date: '2026-07-01',
      merchant: 'Coffee Corner GmbH',
      taxAmount: 3.8,
      taxRate: 190,
    }));
    try {
      const extractor = createReceiptExtractor({
        ocr,
        llm: createLlmClient({ baseUrl: llm.url, apiKey: 'sk-test', model: 'receipt-model' }),
      });
      const photo = await photoReceipt(coffee, 'image/jpeg');
      const out = await extractor.extract(photo, 'image/jpeg');
      // The tax rate of 190 % is not believable, so it stays empty; the rest is the model's reading.
      expect(out).toEqual({
        method: 'llm',
        fields: { ...expected, merchant: 'Coffee Corner GmbH', taxRate: null },
        text: expect.stringContaining('Total EUR 23.80'),
      });

      const req = llm.calls[0].body;
      expect(req).toMatchObject({
        model: 'receipt-model',
        temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'receipt', strict: true } },
      });
      const [text, image] = req.messages[1].content;
      expect(text.text).toContain('Total EUR 23.80'); // the OCR text goes along
      expect(image.image_url.url).toBe(`data:image/jpeg;base64,${photo.toString('base64')}`);
    } finally {
      await llm.close();
    }
  });

  it('sends an iPhone photo (HEIC) to the model as PNG, which vision models read', async () => {
    const llm = await startLlmFake('sk-test', () => ({
      amount: 23.8,
      currency: 'EUR',
      date: '2026-07-01',
      merchant: 'Coffee Corner',
      taxAmount: 3.8,
      taxRate: 19,
    }));
    try {
      const extractor = createReceiptExtractor({ ocr, llm: createLlmClient({ baseUrl: llm.url, apiKey: 'sk-test', model: 'm' }) });
      expect((await extractor.extract(await heicReceipt(coffee), 'image/heic')).fields).toEqual(expected);
      const image = llm.calls[0].body.messages[1].content[1].image_url.url as string;
      expect(image.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    } finally {
      await llm.close();
    }
  });

  it('falls back to reading by rules when the LLM fails, and says why', async () => {
    const llm = await startLlmFake('sk-test', () => ({}));
    llm.fail('/v1/chat/completions', 503, { error: { message: 'overloaded' } });
    const failures: string[] = [];
    try {
      const extractor = createReceiptExtractor({
        ocr,
        llm: createLlmClient({ baseUrl: llm.url, apiKey: 'sk-test', model: 'm' }),
        onLlmFailure: (e) => failures.push(e.message),
      });
      expect(await extractor.extract(await pdfReceipt(coffee), 'application/pdf')).toMatchObject({ method: 'pdf_text', fields: expected });
      expect(failures).toEqual(['LLM answered 503: overloaded']);

      const wrongKey = createReceiptExtractor({
        ocr,
        llm: createLlmClient({ baseUrl: llm.url, apiKey: 'sk-wrong', model: 'm' }),
        onLlmFailure: (e) => failures.push(e.message),
      });
      expect((await wrongKey.extract(await pdfReceipt(coffee), 'application/pdf')).method).toBe('pdf_text');
      expect(failures[1]).toMatch(/^LLM answered 401/);
    } finally {
      await llm.close();
    }
  });
});

describe("the worker's receipt reader", () => {
  it('uses the LLM exactly when LLM_API_URL is configured', async () => {
    const llm = await startLlmFake('sk-config', () => ({
      amount: 9.99,
      currency: 'USD',
      date: '2026-05-05',
      merchant: 'From the model',
      taxAmount: null,
      taxRate: null,
    }));
    const pdf = await pdfReceipt(coffee);
    // The reader never touches the database: a knex that was never connected stands in.
    const db = createDb({ url: 'postgres://127.0.0.1:9/never-connected' });
    const withLlm = createActivityDeps(testConfig({ LLM_API_URL: llm.url, LLM_API_KEY: 'sk-config', LLM_MODEL: 'configured-model' }), db);
    const without = createActivityDeps(testConfig({ LLM_API_URL: '' }), db);
    try {
      expect(await withLlm.receipts.extract(pdf, 'application/pdf')).toMatchObject({
        method: 'llm',
        fields: { merchant: 'From the model', amount: 9.99 },
      });
      expect(llm.calls.map((c) => c.body.model)).toEqual(['configured-model']);
      expect(await without.receipts.extract(pdf, 'application/pdf')).toMatchObject({ method: 'pdf_text', fields: expected });
      expect(llm.calls).toHaveLength(1);
    } finally {
      await closeActivityDeps(withLlm);
      await closeActivityDeps(without);
      await db.destroy();
      await llm.close();
    }
  });
});

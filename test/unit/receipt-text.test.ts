import { UNSURE, extractFromText, parseMoney } from '../../shared/domain/receipts/extract';
import { fieldsFromLlm } from '../../shared/domain/receipts/llm-fields';
import { trustedText } from '../../shared/domain/receipts/ocr';
import { shrinkRgba } from '../../shared/domain/receipts/heic';

describe('reading fields from receipt text', () => {
  it('reads total, currency, date, merchant and VAT from a till receipt', () => {
    const text = ['Coffee Corner', 'Receipt', 'Date: 01.07.2026', 'Latte 4,80', 'Subtotal 20,00', 'MwSt 19% 3,80', 'Summe EUR 23,80'].join(
      '\n',
    );
    expect(extractFromText(text)).toEqual({
      amount: 23.8,
      currency: 'EUR',
      date: '2026-07-01',
      merchant: 'Coffee Corner',
      taxAmount: 3.8,
      taxRate: 19,
    });
  });

  it.each([
    ['1.234,56', 1234.56],
    ['1,234.56', 1234.56],
    ['12,50', 12.5],
    ['$ 99', 99],
  ])('parses %s as %d', (s, n) => expect(parseMoney(s)).toBe(n));

  it('leaves a field empty when the words it needs were read without confidence', () => {
    const text = ['Coffee Corner', `Date: ${UNSURE}`, `VAT 19% ${UNSURE}`, `Total EUR ${UNSURE}`].join('\n');
    expect(extractFromText(text)).toMatchObject({ amount: null, date: null, taxAmount: null, merchant: 'Coffee Corner' });
    expect(extractFromText(`${UNSURE} Corner\nTotal 5.00`).merchant).toBeNull();
  });

  it('never takes a field from a later line when the line that holds it was unsure', () => {
    const text = [
      `Coffee ${UNSURE}`,
      'Receipt',
      `Date: ${UNSURE}`,
      'Latte 4.80',
      'Printed 2026-07-03',
      `Total EUR ${UNSURE}`,
      'Total items 2',
    ].join('\n');
    expect(extractFromText(text)).toMatchObject({ merchant: null, date: null, amount: null });
    expect(extractFromText([`${UNSURE} ${UNSURE}`, 'Latte 4.80', 'Total 4.80'].join('\n')).merchant).toBeNull();
  });

  it('masks OCR words below the confidence threshold', () => {
    const blocks = [
      {
        paragraphs: [
          {
            lines: [
              {
                words: [
                  { text: 'Total', confidence: 95 },
                  { text: '23.80', confidence: 41 },
                ],
              },
              { words: [{ text: 'Shop', confidence: 88 }] },
            ],
          },
        ],
      },
    ];
    expect(trustedText(blocks)).toBe(`Total ${UNSURE}\nShop`);
    expect(extractFromText(trustedText(blocks)).amount).toBeNull();
  });
});

describe('fields from an LLM answer', () => {
  it('keeps well-formed values and normalises them', () => {
    expect(
      fieldsFromLlm({ amount: 23.804, currency: 'eur', date: '2026-07-01', merchant: ' Coffee Corner ', taxAmount: 3.8, taxRate: 19 }),
    ).toEqual({
      amount: 23.8,
      currency: 'EUR',
      date: '2026-07-01',
      merchant: 'Coffee Corner',
      taxAmount: 3.8,
      taxRate: 19,
    });
  });

  it('empties each malformed field on its own rather than trusting it', () => {
    expect(fieldsFromLlm({ amount: -5, currency: 'euro', date: '2026-02-30', merchant: '', taxAmount: 'n/a', taxRate: 250 })).toEqual({
      amount: null,
      currency: null,
      date: null,
      merchant: null,
      taxAmount: null,
      taxRate: null,
    });
    expect(fieldsFromLlm('not an object')).toMatchObject({ amount: null, merchant: null });
  });
});

describe('shrinking a large photo before it is read', () => {
  it('averages each block and keeps small images as they are', () => {
    // 4×2 pixels, grey levels 0, 100, 200, 40 / 20, 60, 0, 80; alpha 255.
    const grey = [0, 100, 200, 40, 20, 60, 0, 80];
    const data = new Uint8ClampedArray(grey.flatMap((v) => [v, v, v, 255]));
    const out = shrinkRgba({ width: 4, height: 2, data }, 2);
    expect(out).toMatchObject({ width: 2, height: 1 });
    expect([...out.data]).toEqual([45, 45, 45, 255, 80, 80, 80, 255]);
    const small = { width: 4, height: 2, data };
    expect(shrinkRgba(small, 4)).toBe(small);
  });
});

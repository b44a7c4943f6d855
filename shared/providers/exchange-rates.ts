import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';

export interface ReferenceRate {
  date: string;
  /** 1 EUR = rate units of this currency. */
  currency: string;
  rate: number;
}

/**
 * The document as the parser reads it, attributes as strings. An entry that does not fit (an empty
 * `<Cube/>` parses as '') reads as blanks, which the filter below drops with any malformed rate.
 */
const attribute = z.string().catch('');
const rateCube = z.object({ currency: attribute, rate: attribute }).catch({ currency: '', rate: '' });
const dayCube = z.object({ time: attribute, Cube: z.array(rateCube).catch([]) }).catch({ time: '', Cube: [] });
const ecbDocument = z.object({ Envelope: z.object({ Cube: z.array(z.object({ Cube: z.array(dayCube) })) }) });

/**
 * The European Central Bank's euro reference rates (`eurofxref-daily.xml`, `eurofxref-hist-90d.xml`):
 * a gesmes envelope of `<Cube time="YYYY-MM-DD">` days, each holding `<Cube currency="USD" rate="…"/>`.
 * Published on TARGET working days around 16:00 CET.
 */
export function createEcbRatesClient(opts: { url: string; timeoutMs?: number }) {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    isArray: (name) => name === 'Cube',
  });
  return {
    async fetchRates(): Promise<ReferenceRate[]> {
      const res = await fetch(opts.url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
      if (!res.ok) throw new Error(`exchange rates answered ${res.status}`);
      const doc = ecbDocument.safeParse(parser.parse(await res.text()));
      const days = doc.success ? (doc.data.Envelope.Cube[0]?.Cube ?? []) : [];
      const rates = days.flatMap((day) => day.Cube.map((c) => ({ date: day.time, currency: c.currency, rate: Number(c.rate) })));
      const valid = rates.filter(
        (r) => /^\d{4}-\d{2}-\d{2}$/.test(r.date) && /^[A-Z]{3}$/.test(r.currency) && Number.isFinite(r.rate) && r.rate > 0,
      );
      if (valid.length === 0) throw new Error('exchange rates document holds no rates');
      return valid;
    },
  };
}

export type EcbRatesClient = ReturnType<typeof createEcbRatesClient>;

import { XMLParser } from 'fast-xml-parser';
import { parseXml } from './shared/domain/e-invoices/incoming/safe-xml';
import { readEInvoice } from './shared/domain/e-invoices/incoming/read';
import { supplierUbl } from './test/support/supplier-e-invoice';
const lines = Array.from({ length: 2600 }, (_, i) => ({ name: `Spare part ${i + 1}, batch ${String(i).padStart(5, '0')}`, quantity: 1 + (i % 9), price: 3.5 + (i % 40), vatRate: i % 5 ? 19 : 7 }));
const xml = supplierUbl({ number: 'BIG-1', lines });
const t = (name: string, f: () => unknown) => { for (let i = 0; i < 3; i++) f(); const s = performance.now(); for (let i = 0; i < 10; i++) f(); console.log(name, ((performance.now() - s) / 10).toFixed(1)); };
(async () => {
  t('parseXml', () => parseXml(xml));


  const b = Buffer.from(xml);
  const s = performance.now(); for (let i = 0; i < 10; i++) await readEInvoice(b, 'application/xml'); console.log('read', ((performance.now() - s) / 10).toFixed(1));
})();

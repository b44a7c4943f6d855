import { XMLParser } from 'fast-xml-parser';
import { cleanText, type RowResult } from './rows';
import { parseAmount, parseDate } from './values';

/**
 * OFX and CAMT.053 statements. Both are documents rather than row streams (an OFX file is SGML a
 * parser needs whole, CAMT.053 one XML tree), and a statement file is small next to the upload
 * limit: they are read whole here, in the worker, never in the gateway. A transaction's "line" in
 * an error is its position in the statement (1 is the first).
 */

/** Nested OFX/XML nodes as the parsers give them: objects, arrays or text. */
type Node = { [key: string]: Node | Node[] | string | undefined };
type Value = Node | Node[] | string | undefined;

const asList = (v: Value): Node[] => (v === undefined ? [] : Array.isArray(v) ? v : typeof v === 'string' ? [] : [v]);
const child = (v: Value, ...path: string[]): Value => {
  let cur: Value = v;
  for (const key of path) {
    if (cur === undefined || typeof cur === 'string') return undefined;
    cur = Array.isArray(cur) ? cur[0]?.[key] : cur[key];
  }
  return cur;
};
const text = (v: Value, ...path: string[]): string | null => {
  const found = child(v, ...path);
  if (typeof found === 'string') return found.trim() || null;
  if (found && !Array.isArray(found) && typeof found['#text'] === 'string') return found['#text'].trim() || null;
  return null;
};

const fail = (line: number, message: string): RowResult => ({ ok: false, error: { line, message } });

/** The transactions of an OFX statement (bank or credit card), posted ones only. */
export async function ofxRows(source: string): Promise<RowResult[]> {
  // ofx-js is an ES module only; this codebase is CommonJS.
  const { parseSync } = await import('ofx-js');
  let parsed: { OFX: Node };
  try {
    parsed = parseSync(source);
  } catch (err) {
    return [fail(1, `not readable as OFX: ${(err as Error).message}`)];
  }
  const statements = [
    ...asList(child(parsed.OFX, 'BANKMSGSRSV1', 'STMTTRNRS')).map((r) => child(r, 'STMTRS')),
    ...asList(child(parsed.OFX, 'CREDITCARDMSGSRSV1', 'CCSTMTTRNRS')).map((r) => child(r, 'CCSTMTRS')),
  ];
  const results: RowResult[] = [];
  for (const statement of statements) {
    const currency = text(statement, 'CURDEF');
    for (const trn of asList(child(statement, 'BANKTRANLIST', 'STMTTRN'))) {
      const line = results.length + 1;
      const posted = text(trn, 'DTPOSTED') ?? '';
      const date = parseDate(posted.slice(0, 8), 'YYYYMMDD');
      const rawAmount = text(trn, 'TRNAMT') ?? '';
      // OFX says a point; some European banks write a comma anyway.
      const amount = parseAmount(rawAmount, rawAmount.includes(',') && !rawAmount.includes('.') ? ',' : '.');
      const name = cleanText(text(trn, 'NAME') ?? text(trn, 'PAYEE', 'NAME') ?? text(trn, 'MEMO'));
      const problems = [
        date ? null : `DTPOSTED ${JSON.stringify(posted)} is not a date`,
        amount === null ? `TRNAMT ${JSON.stringify(rawAmount)} is not a number` : null,
        name ? null : 'no NAME or MEMO',
      ].filter((p) => p !== null);
      if (problems.length || !date || amount === null || !name) {
        results.push(fail(line, problems.join('; ')));
        continue;
      }
      const memo = cleanText(text(trn, 'MEMO'));
      results.push({
        ok: true,
        row: {
          line,
          date,
          amount,
          currency: text(trn, 'CURRENCY', 'CURSYM') ?? currency,
          name,
          reference: cleanText(text(trn, 'FITID')) ?? memo,
          counterparty: cleanText(text(trn, 'NAME') ?? text(trn, 'PAYEE', 'NAME')),
        },
      });
    }
  }
  if (!statements.length) return [fail(1, 'no bank or credit card statement in the OFX file')];
  return results;
}

const camtParser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd'].includes(name),
});

/** The booked entries of a CAMT.053 bank-to-customer statement (ISO 20022). */
export function camtRows(source: string): RowResult[] {
  let doc: Node;
  try {
    doc = camtParser.parse(source, true) as Node;
  } catch (err) {
    return [fail(1, `not readable as XML: ${(err as Error).message}`)];
  }
  const statements = asList(child(doc, 'Document', 'BkToCstmrStmt', 'Stmt'));
  if (!statements.length) return [fail(1, 'no BkToCstmrStmt/Stmt: not a CAMT.053 statement')];
  const results: RowResult[] = [];
  let entries = 0;
  for (const statement of statements) {
    for (const entry of asList(statement.Ntry)) {
      const line = ++entries;
      const status = text(entry, 'Sts', 'Cd') ?? text(entry, 'Sts');
      // Pending and informational entries are not on the account yet.
      if (status && status !== 'BOOK') continue;
      const rawDate = text(entry, 'BookgDt', 'Dt') ?? text(entry, 'BookgDt', 'DtTm') ?? text(entry, 'ValDt', 'Dt') ?? '';
      const date = parseDate(rawDate.slice(0, 10), 'YYYY-MM-DD');
      const rawAmount = text(entry, 'Amt') ?? '';
      const magnitude = parseAmount(rawAmount, '.');
      const indicator = text(entry, 'CdtDbtInd');
      const tx = child(entry, 'NtryDtls', 'TxDtls');
      const debit = indicator === 'DBIT';
      // The other party: who was paid on a debit, who paid on a credit (camt.053.001.02 and .08 layouts).
      const party = debit ? 'Cdtr' : 'Dbtr';
      const counterparty = cleanText(text(tx, 'RltdPties', party, 'Nm') ?? text(tx, 'RltdPties', party, 'Pty', 'Nm'));
      const remittance = child(tx, 'RmtInf', 'Ustrd');
      const ustrd = cleanText((Array.isArray(remittance) ? remittance : [remittance]).filter((u) => typeof u === 'string').join(' '));
      const name = counterparty ?? ustrd ?? cleanText(text(entry, 'AddtlNtryInf'));
      const problems = [
        date ? null : `booking date ${JSON.stringify(rawDate)} is not a date`,
        magnitude === null ? `Amt ${JSON.stringify(rawAmount)} is not a number` : null,
        indicator === 'DBIT' || indicator === 'CRDT' ? null : `CdtDbtInd ${JSON.stringify(indicator)} is neither CRDT nor DBIT`,
        name ? null : 'no counterparty, remittance information or AddtlNtryInf',
      ].filter((p) => p !== null);
      if (problems.length || !date || magnitude === null || !name) {
        results.push(fail(line, problems.join('; ')));
        continue;
      }
      const amount = magnitude < 0n ? -magnitude : magnitude;
      const currency = child(entry, 'Amt');
      results.push({
        ok: true,
        row: {
          line,
          date,
          amount: debit ? -amount : amount,
          currency:
            currency && !Array.isArray(currency) && typeof currency !== 'string'
              ? ((currency['@Ccy'] as string | undefined) ?? null)
              : null,
          name,
          reference:
            cleanText(text(entry, 'AcctSvcrRef') ?? text(tx, 'Refs', 'EndToEndId') ?? text(entry, 'NtryRef')) ??
            (counterparty ? ustrd : null),
          counterparty,
        },
      });
    }
  }
  return results;
}

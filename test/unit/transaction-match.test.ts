import {
  IMPORTED_DUPLICATE,
  MANUAL_DUPLICATE,
  PENDING_TO_BOOKED,
  nameScore,
  nameTokens,
  pairDuplicates,
  type MatchCandidate,
} from '../../shared/domain/transactions/match';

/**
 * The matcher that decides which transactions are one: precision first, since a wrong merge loses a
 * real transaction. Every case that must not pair is as close to a pair as it can be but for one thing.
 */
const row = (id: string, fields: Partial<MatchCandidate> = {}): MatchCandidate => ({
  id,
  date: '2026-11-10',
  amount: -3.5,
  currency: 'EUR',
  bankAccountId: 'acc-1',
  names: ['Coffee Bar'],
  ...fields,
});

describe('names', () => {
  it('compares words, not case, accents or the words that say how someone paid', () => {
    expect(nameTokens('CAFÉ  Müller – POS Card Purchase')).toEqual(['cafe', 'muller']);
    expect(nameScore('COFFEE BAR', 'Coffee Bar')).toBe(1);
    expect(nameScore('Starbucks', 'STARBUCKS SEATTLE WA')).toBe(1);
    expect(nameScore('AMAZONMKTPLACE', 'Amazon Mktplace')).toBeGreaterThan(0.6);
    expect(nameScore('Café Müller', 'CAFE MULLER')).toBe(1);
  });

  it('scores different counterparties low, and names whose numbers disagree zero', () => {
    expect(nameScore('Coffee Bar', 'Shell Station')).toBeLessThan(0.6);
    expect(nameScore('Merchant 3', 'Merchant 4')).toBe(0);
    expect(nameScore('REWE 1234', 'REWE 5678')).toBe(0);
    expect(nameScore('OFFICE DEPOT #1207', 'Office Depot')).toBe(1);
    expect(nameScore('POS', 'Card')).toBe(0);
    expect(nameScore(null, 'Coffee')).toBe(0);
  });
});

describe('pairDuplicates', () => {
  it('pairs the same purchase across a few days and a differently written name', () => {
    const pairs = pairDuplicates([row('bank', { names: ['COFFEE BAR BERLIN'], date: '2026-11-11' })], [row('manual')], MANUAL_DUPLICATE);
    expect(pairs).toEqual([{ incoming: 'bank', existing: 'manual', score: 1 }]);
  });

  it('pairs identical purchases one to one: two and two stay two, three against two leave one', () => {
    const two = [row('s1'), row('s2')];
    expect(pairDuplicates([row('i1'), row('i2')], two, IMPORTED_DUPLICATE)).toHaveLength(2);
    const three = pairDuplicates([row('i1'), row('i2'), row('i3')], two, IMPORTED_DUPLICATE);
    expect(three).toHaveLength(2);
    expect(new Set(three.map((p) => p.existing))).toEqual(new Set(['s1', 's2']));
    expect(new Set(three.map((p) => p.incoming)).size).toBe(2);
    // Against none, every one is new.
    expect(pairDuplicates([row('i1'), row('i2')], [], IMPORTED_DUPLICATE)).toEqual([]);
  });

  it('never pairs on amount and date alone: another name, account, currency, sign, amount or a date too far', () => {
    const existing = [row('e')];
    const refused: Partial<MatchCandidate>[] = [
      { names: ['Shell Station'] },
      { bankAccountId: 'acc-2' },
      { currency: 'USD' },
      { amount: 3.5 },
      { amount: -3.51 },
      { date: '2026-11-12' },
      { date: '2026-11-08' },
    ];
    for (const fields of refused) expect(pairDuplicates([row('n', fields)], existing, IMPORTED_DUPLICATE)).toEqual([]);
    expect(pairDuplicates([row('n', { date: '2026-11-14' })], existing, MANUAL_DUPLICATE)).toEqual([]);
  });

  it('lets a manual entry without an account pair with a synced row of any account', () => {
    expect(pairDuplicates([row('bank')], [row('manual', { bankAccountId: null })], MANUAL_DUPLICATE)).toHaveLength(1);
  });

  it('pairs a booked transaction with its pending one across a tip and a few days, not with an older or a much different one', () => {
    const pending = row('pending', { amount: -40, date: '2026-11-08', names: ['Trattoria Roma'] });
    const booked = (fields: Partial<MatchCandidate>) => row('booked', { names: ['TRATTORIA ROMA'], ...fields });
    expect(pairDuplicates([booked({ amount: -46, date: '2026-11-10' })], [pending], PENDING_TO_BOOKED)).toHaveLength(1);
    expect(pairDuplicates([booked({ amount: -52, date: '2026-11-10' })], [pending], PENDING_TO_BOOKED)).toEqual([]);
    expect(pairDuplicates([booked({ amount: -40, date: '2026-11-16' })], [pending], PENDING_TO_BOOKED)).toEqual([]);
    // Booked well before the pending date: another purchase.
    expect(pairDuplicates([booked({ amount: -40, date: '2026-11-05' })], [pending], PENDING_TO_BOOKED)).toEqual([]);
  });

  it('takes the closest pair first, whatever the order it is given', () => {
    const near = row('near', { date: '2026-11-10' });
    const far = row('far', { date: '2026-11-09' });
    const incoming = [row('n', { date: '2026-11-10' })];
    expect(pairDuplicates(incoming, [far, near], MANUAL_DUPLICATE)[0].existing).toBe('near');
    expect(pairDuplicates(incoming, [near, far], MANUAL_DUPLICATE)[0].existing).toBe('near');
  });

  it('compares amounts to the ten-thousandth, not in floating point', () => {
    expect(pairDuplicates([row('n', { amount: 0.1 + 0.2 })], [row('e', { amount: 0.3 })], IMPORTED_DUPLICATE)).toHaveLength(1);
  });
});

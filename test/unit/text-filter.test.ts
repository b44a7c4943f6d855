import { narrowingPiece, narrowingWord, wordShare, type TextSample } from '../../shared/domain/transactions/text-filter';

// Shaped like the statistics on the indexed text: most common values with their shares, the rest in equal parts.
const sample: TextSample = {
  values: [
    { text: 'merchant 12\n\n\n', share: 0.3 },
    { text: 'merchant 417\n\n\n', share: 0.1 },
    { text: 'card payment\nuber trip\n\n', share: 0.3 },
    { text: 'card payment\nzephyr gmbh\n\n', share: 0.3 },
  ],
};

describe('narrowingWord', () => {
  it("gives the index the query's rarest word, not a common one whose trigrams every row holds", () => {
    expect(narrowingWord('Merchant 417', sample)).toBe('417');
    expect(narrowingWord('card zephyr', sample)).toBe('zephyr');
    expect(narrowingWord('uber payment', sample)).toBe('uber');
  });

  it('prefers the longest among words equally rare, and so without statistics', () => {
    expect(narrowingWord('acme holdings', sample)).toBe('holdings');
    expect(narrowingWord('acme holdings', null)).toBe('holdings');
  });

  it('gives nothing when no word has three letters or digits in a row (no trigram to look up)', () => {
    expect(narrowingWord('ab', sample)).toBeNull();
    expect(narrowingWord('% _ a-1', sample)).toBeNull();
    expect(narrowingWord('é-1 über', sample)).toBe('über');
  });

  it('only ever gives a part of the query, so narrowing by it never loses a match', () => {
    for (const q of ['Merchant 417', '100% zephyr_fee', 'Uber *Trip 4x', 'Straße 7']) {
      const word = narrowingWord(q, sample);
      expect(word && q.toLowerCase().includes(word)).toBeTruthy();
    }
  });
});

describe('narrowingPiece', () => {
  it('gives the index the start of a word too short for a trigram of its own when it is rarer than every longer word', () => {
    expect(narrowingPiece('Merchant 42', sample)).toBe(' 42');
    expect(narrowingPiece('Merchant 417', sample)).toBe('417');
    expect(narrowingPiece('card zephyr', sample)).toBe('zephyr');
  });

  it('prefers the longest piece without statistics, as narrowingWord does', () => {
    expect(narrowingPiece('Merchant 42', null)).toBe('merchant');
    expect(narrowingPiece('42', sample)).toBeNull();
    expect(narrowingPiece('ab-1', sample)).toBe('-1');
  });

  it('only ever gives a part of the query, so narrowing by it never loses a match', () => {
    for (const q of ['Merchant 42', '100% zephyr_fee', 'Uber *Trip 4x', 'Straße 7', 'a b c']) {
      const piece = narrowingPiece(q, sample);
      expect(piece && q.toLowerCase().includes(piece)).toBeTruthy();
    }
  });
});

describe('wordShare', () => {
  it('sums the sampled shares holding the word, gives an unsampled word half of one value, and guesses without statistics', () => {
    expect(wordShare('Card', sample)).toBeCloseTo(0.6);
    expect(wordShare('417', sample)).toBeCloseTo(0.1);
    expect(wordShare('quokka', sample)).toBeCloseTo(0.5 / 4);
    expect(wordShare('quokka', null)).toBe(0.01);
  });
});

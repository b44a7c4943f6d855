import { requiredPhrases, snippetAnchor } from '../../shared/domain/search/service';

describe('requiredPhrases (the quoted phrases a search narrows by their shingles)', () => {
  it('takes each closed quoted phrase a match must hold', () => {
    expect(requiredPhrases('"baker street"')).toEqual(['baker street']);
    expect(requiredPhrases('lease "baker street" "twelve months" office')).toEqual(['baker street', 'twelve months']);
    expect(requiredPhrases('no phrase here')).toEqual([]);
  });

  it('takes none that a match may lack: negated, beside an or, unclosed or empty', () => {
    expect(requiredPhrases('lease -"baker street"')).toEqual([]);
    expect(requiredPhrases('lease -"a b" "c d"')).toEqual(['c d']);
    expect(requiredPhrases('"baker street" or office')).toEqual([]);
    expect(requiredPhrases('"baker street" OR "twelve months"')).toEqual([]);
    expect(requiredPhrases('"baker street" "unclosed phrase')).toEqual(['baker street']);
    expect(requiredPhrases('"" "  " x')).toEqual([]);
    // Words between two phrases are not a phrase of their own.
    expect(requiredPhrases('"a b" c d "e f"')).toEqual(['a b', 'e f']);
  });

  it('keeps "or" inside a phrase and in words that only contain it', () => {
    expect(requiredPhrases('"black or white" order')).toEqual(['black or white']);
  });
});

describe('snippetAnchor (where a snippet starts looking in a long text)', () => {
  it('takes the first required phrase, spaced and lower-cased as the text is searched', () => {
    expect(snippetAnchor('lease "Baker   Street" x', requiredPhrases('lease "Baker   Street" x'))).toBe('baker street');
  });

  it('else the longest word that is not negated nor an operator', () => {
    expect(snippetAnchor('tax Insurance -renewalclause or', [])).toBe('insurance');
    expect(snippetAnchor('"baker street" or office', requiredPhrases('"baker street" or office'))).toBe('street');
    expect(snippetAnchor('   ', [])).toBe('');
  });
});

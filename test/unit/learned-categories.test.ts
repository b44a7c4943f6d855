import { LearnedModel, amountBand, type LearnedExample } from '../../shared/domain/learned-categories/model';
import { merchantTokens } from '../../shared/domain/learned-categories/normalise';
import { providerCategorySlug } from '../../shared/domain/learned-categories/provider-categories';
import { validChoices } from '../../shared/domain/learned-categories/llm';

describe('merchant normalisation', () => {
  it.each([
    ['POS 4411 STARBUCKS #123 SEATTLE WA', ['starbucks', 'seattle']],
    ['Starbucks', ['starbucks']],
    ['SQ *Blue Bottle Coffee', ['blue', 'bottle', 'coffee']],
    ['PAYPAL *GitHub #7943', ['github']],
    ['VISA ADOBE', ['adobe']],
    ['CARD PURCHASE Hetzner Online GmbH', ['hetzner']],
    ['Kartenzahlung REWE Markt 0442 BERLIN DE', ['rewe', 'markt', 'berlin']],
    ['H&M', ['h', 'm']],
  ])('%s → %j', (name, tokens) => {
    expect(merchantTokens(name)).toEqual(tokens);
  });

  it('gives the same words however the bank cased and punctuated the name', () => {
    expect(merchantTokens('GITHUB, INC.')).toEqual(merchantTokens('GitHub Inc'));
    expect(merchantTokens('Café Crème')).toEqual(merchantTokens('CAFE CREME'));
  });
});

const example = (
  text: string,
  categorySlug: string,
  amount: number,
  accountId: string | null = 'a',
  count = 1,
  id = text,
): LearnedExample => ({
  text,
  categorySlug,
  amount,
  accountId,
  count,
  samples: [{ id, name: text }],
});

describe('nearest neighbours', () => {
  it('is confident with several agreeing neighbours, and names them', () => {
    const model = new LearnedModel([
      example('GitHub', 'software', -21, 'a', 1, 'g1'),
      example('PAYPAL *GITHUB #1', 'software', -21, 'a', 1, 'g2'),
      example('GITHUB INC', 'software', -4, 'a', 1, 'g3'),
      example('GitHub', 'software', -21, 'a', 1, 'g4'),
    ]);
    const s = model.suggest({ text: 'POS GITHUB #99', accountId: 'a', amount: -21 });
    expect(s).toMatchObject({ categorySlug: 'software', support: 4 });
    expect(s!.confidence).toBeGreaterThan(0.9);
    expect(s!.neighbours.map((n) => n.id)).toContain('g1');
  });

  it('one neighbour is a suggestion, not a certainty', () => {
    const model = new LearnedModel([example('Figma', 'software', -15)]);
    const s = model.suggest({ text: 'FIGMA', accountId: 'a', amount: -15 });
    expect(s?.categorySlug).toBe('software');
    expect(s!.confidence).toBeLessThan(0.85);
  });

  it('finds a misspelt merchant through its trigrams, less sure than the spelt one', () => {
    const model = new LearnedModel([example('Starbucks', 'meals', -5, 'a', 10)]);
    const right = model.suggest({ text: 'STARBUCKS', accountId: 'a', amount: -5 })!;
    const typo = model.suggest({ text: 'STARBUKS BERLIN', accountId: 'a', amount: -5 })!;
    expect(typo.categorySlug).toBe('meals');
    expect(typo.confidence).toBeLessThan(right.confidence);
  });

  it('tells an ambiguous merchant apart by amount', () => {
    const model = new LearnedModel([
      example('Amazon Mktplace', 'office-supplies', -30, 'a', 6),
      example('Amazon Mktplace', 'equipment', -1400, 'a', 6),
    ]);
    expect(model.suggest({ text: 'AMAZON MKTPLACE', accountId: 'a', amount: -25 })?.categorySlug).toBe('office-supplies');
    expect(model.suggest({ text: 'AMAZON MKTPLACE', accountId: 'a', amount: -1500 })?.categorySlug).toBe('equipment');
    // In between, neither is near: no confident answer.
    expect(model.suggest({ text: 'AMAZON MKTPLACE', accountId: 'a', amount: -200 })!.confidence).toBeLessThan(0.85);
  });

  it('weighs the same account and direction above another', () => {
    const model = new LearnedModel([example('Acme', 'revenue', 500, 'main', 3), example('Acme', 'professional-services', -500, 'card', 3)]);
    expect(model.suggest({ text: 'ACME', accountId: 'main', amount: 480 })?.categorySlug).toBe('revenue');
    expect(model.suggest({ text: 'ACME', accountId: 'card', amount: -480 })?.categorySlug).toBe('professional-services');
  });

  it('suggests nothing for a merchant it never saw', () => {
    const model = new LearnedModel([example('GitHub', 'software', -21, 'a', 5)]);
    expect(model.suggest({ text: 'Lufthansa', accountId: 'a', amount: -21 })).toBeNull();
    expect(model.suggest({ text: '#12345', accountId: 'a', amount: -21 })).toBeNull();
  });

  it('answers from examples added later as from those it was built with, a misspelling included', () => {
    const model = new LearnedModel([example('Figma', 'software', -15, 'a', 1, 'f1')]);
    // Asked before the word is known: the misspelling finds nothing, and must not stay cached so.
    expect(model.suggest({ text: 'STARBUKS', accountId: 'a', amount: -5 })).toBeNull();
    // Nor an answer given before more was learned.
    expect(model.suggest({ text: 'FIGMA', accountId: 'a', amount: -15 })?.support).toBe(1);
    model.add([example('Starbucks', 'meals', -5, 'a', 10, 's1')]);
    model.add([example('Figma', 'software', -15, 'a', 3, 'f2')]);
    expect(model.size).toBe(2);
    expect(model.suggest({ text: 'STARBUKS', accountId: 'a', amount: -5 })?.categorySlug).toBe('meals');
    const figma = model.suggest({ text: 'FIGMA', accountId: 'a', amount: -15 })!;
    expect(figma).toMatchObject({ categorySlug: 'software', support: 4 });
    expect(figma.confidence).toBeGreaterThan(
      new LearnedModel([example('Figma', 'software', -15, 'a', 1)]).suggest({ text: 'FIGMA', accountId: 'a', amount: -15 })!.confidence,
    );
  });

  it('groups alike examples and bands amounts by half octaves', () => {
    const model = new LearnedModel([
      example('GitHub', 'software', -21),
      example('GITHUB', 'software', -20),
      example('GitHub', 'software', -21, 'b'),
    ]);
    expect(model.size).toBe(2);
    expect(amountBand(-16)).toBe(amountBand(18));
    expect(amountBand(10)).toBeLessThan(amountBand(40) - 2);
  });
});

describe('provider categories', () => {
  it("maps either bank's category onto a default slug, and nothing it cannot place", () => {
    expect(providerCategorySlug('FOOD_AND_DRINK')).toBe('meals');
    expect(providerCategorySlug('software')).toBe('software');
    expect(providerCategorySlug('TRANSFER_OUT')).toBeNull();
    expect(providerCategorySlug(null)).toBeNull();
  });
});

describe("the language model's answer (validChoices)", () => {
  const asked = new Set(['t1', 't2', 't3']);
  const categories = new Map([
    ['software', 'Software'],
    ['travel', 'Travel'],
  ]);

  it('keeps a slug of the team for an id it asked, with the confidence and a one-line reason', () => {
    expect(
      validChoices(
        {
          categories: [
            { id: 't1', category: 'software', confidence: 0.9, reason: 'a SaaS\nvendor\u202e' },
            { id: 't2', category: 'travel' },
          ],
        },
        asked,
        categories,
      ),
    ).toEqual([
      { id: 't1', slug: 'software', confidence: 0.9, reason: 'a SaaS vendor' },
      { id: 't2', slug: 'travel', confidence: undefined, reason: undefined },
    ]);
  });

  it('ignores unknown slugs, ids not asked, ids named twice, bad confidences and other shapes', () => {
    const answer = {
      categories: [
        { id: 't1', category: 'gambling', confidence: 1 },
        { id: 'elsewhere', category: 'software', confidence: 1 },
        { id: 't2', category: 'software', confidence: 1 },
        { id: 't2', category: 'travel', confidence: 1 },
        { id: 't3', category: 'software', confidence: 1.5 },
        { id: 't3', category: null, confidence: 1 },
        'software',
        null,
      ],
    };
    expect(validChoices(answer, asked, categories)).toEqual([]);
    for (const shape of [null, 'software', [], { categories: 'software' }, { choices: [] }])
      expect(validChoices(shape, asked, categories)).toEqual([]);
  });

  it('cuts a long reason', () => {
    const [choice] = validChoices({ categories: [{ id: 't1', category: 'software', reason: 'x'.repeat(5_000) }] }, asked, categories);
    expect(choice.reason).toHaveLength(200);
  });
});

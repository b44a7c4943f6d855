import { dayBefore, newestInWeeks, someTrigrams, weekOf, weekStart, type WeekWindow } from '../../shared/domain/transactions/week-probe';

describe('weekOf and weekStart', () => {
  it('counts whole weeks from Monday 1970-01-05, before it too, and a week starts on its Monday', () => {
    expect(weekOf('1970-01-05')).toBe(0);
    expect(weekOf('1970-01-11')).toBe(0);
    expect(weekOf('1970-01-12')).toBe(1);
    expect(weekOf('1970-01-04')).toBe(-1);
    expect(weekOf('1969-12-29')).toBe(-1);
    expect(weekOf('1969-12-28')).toBe(-2);
    expect(weekStart(weekOf('2026-11-26'))).toBe('2026-11-23');
    expect(weekStart(-1)).toBe('1969-12-29');
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
    expect(dayBefore('1970-01-01')).toBe('1969-12-31');
  });
});

describe('newestInWeeks', () => {
  // One row per week 0..99 whose week is in `matching`, probed the way the list probes.
  const probeOf = (matching: Set<number>) => {
    const windows: WeekWindow[] = [];
    const probe = (window: WeekWindow, rows: number) => {
      windows.push(window);
      const found: number[] = [];
      for (let week = window.to; week >= window.from && found.length < rows; week--) if (matching.has(week)) found.push(week);
      return Promise.resolve(found);
    };
    return { windows, probe };
  };
  const plan = { trigrams: [['417']], first: weekStart(0), last: weekStart(99) };

  it('stops at the first window that fills the page', async () => {
    const { windows, probe } = probeOf(new Set(Array.from({ length: 100 }, (_, i) => i)));
    expect(await newestInWeeks('team', { ...plan, span: 5 }, 3, probe)).toEqual([99, 98, 97]);
    expect(windows.map((w) => [w.from, w.to])).toEqual([[95, 99]]);
  });

  it('widens into older weeks four times as many, never reads a week twice, and joins the pages in order', async () => {
    const { windows, probe } = probeOf(new Set([98, 80, 60, 40, 3]));
    expect(await newestInWeeks('team', { ...plan, span: 2 }, 4, probe)).toEqual([98, 80, 60, 40]);
    expect(windows.map((w) => [w.from, w.to])).toEqual([
      [98, 99],
      [90, 97],
      [58, 89],
      [0, 57],
    ]);
  });

  it('ends at the first week with what there is', async () => {
    const { windows, probe } = probeOf(new Set([1]));
    expect(await newestInWeeks('team', { ...plan, span: 100 }, 51, probe)).toEqual([1]);
    expect(windows).toHaveLength(1);
  });

  it('looks up fewer trigrams the more weeks a probe spans, and never more than 512 keys', async () => {
    const { windows, probe } = probeOf(new Set());
    const trigrams = [['aaa', 'bbb', 'ccc', 'ddd']];
    await newestInWeeks('team', { trigrams, first: weekStart(0), last: weekStart(999), span: 100 }, 51, probe);
    expect(windows.map((w) => [w.from, w.to, w.trigrams.length])).toEqual([
      [900, 999, 3],
      [500, 899, 1],
      [0, 499, 1],
    ]);
    expect(windows.every((w) => (w.to - w.from + 1) * w.trigrams.length <= 512)).toBe(true);
    expect(windows[0].trigrams).toEqual(['aaa', 'bbb', 'ccc']);
  });

  it('takes trigrams from each word in turn, the rarest word first, without repeats', () => {
    const byWord = [['417'], ['ant', 'cha', 'erc', 'han', 'mer', 'rch']];
    expect(someTrigrams(byWord, 3)).toEqual(['417', 'ant', 'cha']);
    expect(someTrigrams(byWord, 1)).toEqual(['417']);
    expect(someTrigrams([['abc', 'bcd'], ['abc', 'xyz'], []], 3)).toEqual(['abc', 'bcd', 'xyz']);
    expect(someTrigrams([['abc']], 3)).toEqual(['abc']);
  });
});

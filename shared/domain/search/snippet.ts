import { escapeHtml } from '../common/html';

/** Markers ts_headline puts around matched words; control characters never found in stored text that matters. */
export const OPEN = '\u0001';
export const CLOSE = '\u0002';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The snippet as safe HTML: the text escaped, matched words in <mark>. A hit found by name similarity
 * or amount has no full-text match to mark, so the query's own words are marked where they appear.
 */
export function highlighted(snippet: string, q: string): string {
  let text = snippet.replace(/\s+/g, ' ').trim();
  if (!text.includes(OPEN)) {
    const words = q
      .split(/[\s"]+/)
      .map((w) => w.replace(/^-/, ''))
      .filter((w) => w.length >= 2);
    if (words.length) text = text.replace(new RegExp(words.map(escapeRegExp).join('|'), 'gi'), (m) => `${OPEN}${m}${CLOSE}`);
  }
  return escapeHtml(text).replaceAll(OPEN, '<mark>').replaceAll(CLOSE, '</mark>');
}

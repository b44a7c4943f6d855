import { setFlagsFromString } from 'node:v8';

/** Longest pattern a rule may hold: a rule matches names, not documents. */
export const MAX_PATTERN_LENGTH = 200;

// V8's non-backtracking engine (the `l` flag) runs in time linear in the input whatever the pattern.
// It is behind a flag that only enables the `l` flag itself: other regular expressions are untouched.
setFlagsFromString('--enable-experimental-regexp-engine');
const LINEAR = (() => {
  try {
    // eslint-disable-next-line no-invalid-regexp -- the linear engine's flag, which the rule does not know
    new RegExp('a', 'l');
    return 'l';
  } catch {
    return '';
  }
})();

/**
 * Why a pattern is refused, or null when it is accepted. The check is static, so the same pattern is
 * refused on every Node: a repeated group that itself repeats or alternates (`(a+)+`, `(a|ab)*`,
 * the shapes of catastrophic backtracking), backreferences and lookaround (which force backtracking
 * and which the linear engine cannot run), and patterns that do not compile. Accepted patterns are
 * compiled for the linear engine where it exists (see compilePattern), which also bounds the
 * polynomial cases the check lets through (`.*a.*b`).
 */
export function unsafePatternReason(source: string): string | null {
  if (source.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(source);
  } catch (err) {
    return `not a valid regular expression (${(err as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  interface Group {
    repeats: boolean;
    alternates: boolean;
  }
  const stack: Group[] = [{ repeats: false, alternates: false }];
  // What the next quantifier applies to: a group just closed, an atom, or nothing (start, `|`, `(`).
  let last: Group | 'atom' | null = null;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    const top = stack[stack.length - 1];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not allowed';
      i++;
      last = 'atom';
      continue;
    }
    if (ch === '[') {
      // A class is one atom; `]` right after `[` or `[^` is a literal in JavaScript only as `\]`.
      i++;
      while (i < source.length && source[i] !== ']') {
        if (source[i] === '\\') i++;
        i++;
      }
      last = 'atom';
      continue;
    }
    if (ch === '(') {
      if (source.startsWith('(?=', i) || source.startsWith('(?!', i) || source.startsWith('(?<=', i) || source.startsWith('(?<!', i)) {
        return 'lookahead and lookbehind are not allowed';
      }
      stack.push({ repeats: false, alternates: false });
      if (source.startsWith('(?:', i)) i += 2;
      else if (source.startsWith('(?<', i)) i = source.indexOf('>', i);
      last = null;
      continue;
    }
    if (ch === ')') {
      const group = stack.pop() as Group;
      last = group;
      continue;
    }
    if (ch === '|') {
      top.alternates = true;
      last = null;
      continue;
    }
    const quantifier = readQuantifier(source, i);
    if (quantifier && last) {
      i = quantifier.end;
      if (source[i + 1] === '?') i++;
      if (last !== 'atom') {
        if (quantifier.repeats && (last.repeats || last.alternates)) {
          return last.repeats
            ? 'a repeated group that itself repeats (nested quantifiers) can take exponential time'
            : 'a repeated group with alternatives can take exponential time';
        }
        top.repeats ||= last.repeats || quantifier.repeats;
      } else if (quantifier.repeats) {
        top.repeats = true;
      }
      last = null;
      continue;
    }
    last = 'atom';
  }
  try {
    new RegExp(source, LINEAR);
    new RegExp(lowerCased(source), LINEAR);
  } catch {
    return 'cannot be run in linear time';
  }
  return null;
}

/** A quantifier at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`): where it ends and whether it repeats more than once. */
function readQuantifier(source: string, i: number): { end: number; repeats: boolean } | null {
  const ch = source[i];
  if (ch === '*' || ch === '+') return { end: i, repeats: true };
  if (ch === '?') return { end: i, repeats: false };
  if (ch !== '{') return null;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
  if (!m) return null;
  const max = !m[0].includes(',') ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { end: i + m[0].length - 1, repeats: max > 1 };
}

/**
 * The pattern with its literal letters in lower case, for case-insensitive matching on lower-cased
 * text: V8's linear engine does not take the `i` flag. What follows a backslash stays as written
 * (`\S`, `\W`, `\cJ` keep their meaning); hex digits of `\x41` may change case, which keeps their value.
 */
function lowerCased(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else out += source[i].toLowerCase();
  }
  return out;
}

/**
 * A pattern unsafePatternReason accepted, compiled once per batch for V8's linear engine where Node
 * has it. Case-insensitive patterns match lower-cased text with their letters lower-cased.
 */
export function compilePattern(source: string, caseSensitive: boolean): (text: string) => boolean {
  const re = new RegExp(caseSensitive ? source : lowerCased(source), LINEAR);
  // The linear engine is slow to start a match, and a sync's texts repeat (a merchant's every
  // payment): each text's answer is kept, up to a bound, so a run over distinct texts holds few.
  const answers = new Map<string, boolean>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = re.test(caseSensitive ? text : text.toLowerCase());
      if (answers.size >= REMEMBERED_TEXTS) answers.clear();
      answers.set(text, answer);
    }
    return answer;
  };
}

const REMEMBERED_TEXTS = 10_000;

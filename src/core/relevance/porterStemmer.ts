/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), written from
 * the paper's rules. Prose words are reduced to a common stem so "failing", "failed" and
 * "fails" meet "fail" in the index. Deterministic and allocation-light: it runs on every
 * word of every line the relevance filter ranks.
 */

/** The stem of a lower-case English word; words of one or two letters come back unchanged. */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  let stem = word;
  stem = step1a(stem);
  stem = step1b(stem);
  stem = step1c(stem);
  stem = step2(stem);
  stem = step3(stem);
  stem = step4(stem);
  stem = step5(stem);
  return stem;
}

/** True when the letter at `index` acts as a consonant ('y' after a consonant is a vowel). */
function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if (letter === 'a' || letter === 'e' || letter === 'i' || letter === 'o' || letter === 'u') return false;
  if (letter === 'y') return index === 0 ? true : !isConsonant(word, index - 1);
  return true;
}

/** The measure m of a stem: the number of vowel-consonant sequences in [C](VC)^m[V]. */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  const length = stem.length;
  while (index < length && isConsonant(stem, index)) index++;
  while (index < length) {
    while (index < length && !isConsonant(stem, index)) index++;
    if (index >= length) break;
    while (index < length && isConsonant(stem, index)) index++;
    count++;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index++) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsWithDoubleConsonant(stem: string): boolean {
  const length = stem.length;
  return length >= 2 && stem[length - 1] === stem[length - 2] && isConsonant(stem, length - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsConsonantVowelConsonant(stem: string): boolean {
  const length = stem.length;
  if (length < 3) return false;
  const last = stem[length - 1];
  return isConsonant(stem, length - 3) && !isConsonant(stem, length - 2) && isConsonant(stem, length - 1) && last !== 'w' && last !== 'x' && last !== 'y';
}

/** Replaces `suffix` by `replacement` when the remaining stem's measure passes `condition`. */
function replaceWhen(word: string, suffix: string, replacement: string, condition: (stem: string) => boolean): string | undefined {
  if (!word.endsWith(suffix)) return undefined;
  const stem = word.slice(0, word.length - suffix.length);
  return condition(stem) ? stem + replacement : word;
}

function step1a(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ies')) return word.slice(0, -2);
  if (word.endsWith('ss')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + 'ee' : word;
  }
  let stem: string | undefined;
  if (word.endsWith('ed')) stem = word.slice(0, -2);
  else if (word.endsWith('ing')) stem = word.slice(0, -3);
  if (stem === undefined || !hasVowel(stem)) return word;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return stem + 'e';
  if (endsWithDoubleConsonant(stem)) {
    const last = stem[stem.length - 1];
    if (last !== 'l' && last !== 's' && last !== 'z') return stem.slice(0, -1);
    return stem;
  }
  if (measure(stem) === 1 && endsConsonantVowelConsonant(stem)) return stem + 'e';
  return stem;
}

function step1c(word: string): string {
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) return word.slice(0, -1) + 'i';
  return word;
}

const STEP2_RULES: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3_RULES: readonly (readonly [string, string])[] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];

const STEP4_SUFFIXES = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

/** Applies the first rule whose suffix matches (longest listed first where they overlap). */
function applyRules(word: string, rules: readonly (readonly [string, string])[]): string {
  // The paper checks the longest matching suffix; sorting once keeps that without a switch on letters.
  for (const [suffix, replacement] of rules) {
    const result = replaceWhen(word, suffix, replacement, (stem) => measure(stem) > 0);
    if (result !== undefined) return result;
  }
  return word;
}

const STEP2_SORTED = [...STEP2_RULES].sort((a, b) => b[0].length - a[0].length);
const STEP3_SORTED = [...STEP3_RULES].sort((a, b) => b[0].length - a[0].length);
const STEP4_SORTED = [...STEP4_SUFFIXES].sort((a, b) => b.length - a.length);

function step2(word: string): string {
  return applyRules(word, STEP2_SORTED);
}

function step3(word: string): string {
  return applyRules(word, STEP3_SORTED);
}

function step4(word: string): string {
  for (const suffix of STEP4_SORTED) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    if (measure(stem) <= 1) return word;
    if (suffix === 'ion' && !(stem.endsWith('s') || stem.endsWith('t'))) return word;
    return stem;
  }
  return word;
}

function step5(word: string): string {
  let result = word;
  if (result.endsWith('e')) {
    const stem = result.slice(0, -1);
    const stemMeasure = measure(stem);
    if (stemMeasure > 1 || (stemMeasure === 1 && !endsConsonantVowelConsonant(stem))) result = stem;
  }
  if (measure(result) > 1 && endsWithDoubleConsonant(result) && result.endsWith('l')) result = result.slice(0, -1);
  return result;
}

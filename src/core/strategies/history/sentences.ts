/**
 * Sentence splitting for one line of an agent's prose. A boundary is terminal punctuation
 * followed by whitespace, outside inline code, and not after a known abbreviation or a
 * file-name-like token; each sentence keeps its trailing whitespace so the pieces join back
 * to the line exactly.
 */

/** Words after which a period does not end a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'mr', 'mrs', 'dr', 'fig', 'approx', 'resp', 'incl', 'al']);

/** A numbered list marker ("1.") at the start of a sentence is not a sentence of its own. */
const LIST_NUMBER = /^\s*\d{1,3}$/;

/** The sentences of a line (a list item is one sentence with its marker). */
export function splitSentences(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let inCode = false;
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (character === '`') {
      inCode = !inCode;
      continue;
    }
    if (inCode || (character !== '.' && character !== '!' && character !== '?')) continue;
    // Closing quotes, brackets or emphasis belong to the sentence they end.
    let end = index + 1;
    while (end < line.length && /["')\]*_]/.test(line[end]!)) end++;
    if (end >= line.length || !/\s/.test(line[end]!)) continue;
    if (character === '.' && (endsWithAbbreviation(line.slice(start, index)) || LIST_NUMBER.test(line.slice(start, index)))) continue;
    let next = end;
    while (next < line.length && /\s/.test(line[next]!)) next++;
    // A lower-case continuation is usually not a new sentence ("see foo.py. then" is rare; "3 vs. 4" common).
    if (next < line.length && /[a-z]/.test(line[next]!)) continue;
    sentences.push(line.slice(start, next));
    start = next;
    index = next - 1;
  }
  if (start < line.length) sentences.push(line.slice(start));
  return sentences;
}

function endsWithAbbreviation(text: string): boolean {
  const word = lastWord(text);
  if (!word) return false;
  const lower = word.toLowerCase();
  // A single capital letter is an initial ("J. Smith").
  return ABBREVIATIONS.has(lower) || /^[A-Z]$/.test(word);
}

/**
 * The text's last word as /([A-Za-z][A-Za-z.]*)$/ finds it (letters and dots, starting with a
 * letter), scanned from the end: the pattern itself is quadratic on a long run of letters.
 */
function lastWord(text: string): string | undefined {
  let start = text.length;
  while (start > 0 && /[A-Za-z.]/.test(text[start - 1]!)) start--;
  while (start < text.length && text[start] === '.') start++;
  return start < text.length ? text.slice(start) : undefined;
}

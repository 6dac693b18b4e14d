/**
 * Topic words: the content words of a tool's name and description, or of a conversation,
 * lower-cased and lightly stemmed, without stop words and without the generic verbs every
 * tool description uses ("use", "get", "find", …), which tie a tool to nothing.
 */

const STOP_WORDS = new Set(
  ('a an and are as at be been but by can could did do does for from had has have how if in into is it its may me might must my no not of on or our ' +
    'should so than that the their them then there these they this those to too was we were what when where which while who why will with would you your ' +
    'all any each every some more most other such only own same just also very about above after again against below between both during few further ' +
    'here once out over under until up down off via per etc e.g i.e eg ie one two yes true false null none').split(' '),
);

/** Verbs and nouns so common in tool descriptions that sharing them says nothing about purpose. */
const GENERIC_WORDS = new Set(
  ('use used using uses get gets getting find finds finding fetch fetches set sets list lists make makes run runs running call calls called ' +
    'return returns returned retrieve retrieves give gives take takes provide provides provided show shows need needs want wants help helps ' +
    'tool tools function functions api allow allows let lets enable enables perform performs do does done create creates update updates ' +
    'specified specific given given optional required default value values parameter parameters param params argument arguments input inputs ' +
    'output outputs result results data information info item items thing things object objects new current way like able please note ' +
    'user users assistant model agent request requests response responses string number boolean field fields type types name names id ids ' +
    'can cannot must should may might work works working check checks').split(' '),
);

/** Lower-cased words of a text; identifiers are split on `_`, `-`, `.`, `/` and camelCase. */
export function wordsOf(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ');
  return spaced.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/** A light stem so "issues", "issue" and "bugs", "bug" meet. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 4 && /(?:ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** The topic words of a text, as a set of stems. */
export function topicWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of wordsOf(text)) {
    if (word.length < 3 || /^\d+$/.test(word) || STOP_WORDS.has(word) || GENERIC_WORDS.has(word)) continue;
    const stemmed = stem(word);
    if (GENERIC_WORDS.has(stemmed)) continue;
    out.add(stemmed);
  }
  return out;
}

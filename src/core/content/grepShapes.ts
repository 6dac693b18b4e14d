/**
 * Grep hits of one shape: a search for a name often returns dozens of lines that are the same
 * call with other literals (`render_to_string('ifequal01', {'a': 1})`, `…('ifequal02', …)`).
 * Beyond the first few, such hits say only where else the shape occurs, so they fold into one
 * line that keeps every line number. A hit that mentions a word the question asks about, other
 * than the words every hit shares (the searched name), is never folded.
 */

/** A group needs this many hits of one shape in one file before it folds. */
export const SHAPE_FOLD_MIN = 5;
/** Hits of a folded shape still shown as they are. */
export const SHAPE_SHOWN = 2;

/** The shape of a hit's text: string literals and numbers masked, spaces folded. */
export function hitShape(text: string): string {
  return text
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\\n]|\\.)*`/g, '"…"')
    .replace(/\b\d+(?:\.\d+)?\b/g, '0')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The question's words that tell hits apart: those fewer than half of the hits mention. */
export function tellingWords(words: readonly string[], texts: readonly string[]): string[] {
  if (texts.length === 0) return [...words];
  const lower = texts.map((text) => text.toLowerCase());
  return words.filter((word) => lower.filter((text) => text.includes(word)).length * 2 < texts.length);
}

/**
 * For the findings of one file (in order), the indexes to fold away: every hit of a shape past
 * its first {@link SHAPE_SHOWN}, when the shape has {@link SHAPE_FOLD_MIN} or more hits and
 * none of them mentions a telling word. Returned per shape's last shown index, so the caller
 * writes one fold line there.
 */
export function shapeFolds(texts: readonly string[], mentions: (text: string) => boolean): Map<number, number[]> {
  const groups = new Map<string, number[]>();
  texts.forEach((text, index) => {
    const shape = hitShape(text);
    const group = groups.get(shape);
    if (group) group.push(index);
    else groups.set(shape, [index]);
  });
  const folds = new Map<number, number[]>();
  for (const indexes of groups.values()) {
    if (indexes.length < SHAPE_FOLD_MIN || indexes.some((index) => mentions(texts[index]!))) continue;
    folds.set(indexes[SHAPE_SHOWN - 1]!, indexes.slice(SHAPE_SHOWN));
  }
  return folds;
}

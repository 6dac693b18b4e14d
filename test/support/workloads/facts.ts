/** How a key fact is looked for in a request's text. */

/**
 * Whether `fact` occurs in `text` as a whole: not glued to a letter or digit on a side where the
 * fact itself starts or ends with one (so "743" is not found inside "17431").
 */
export function containsFact(text: string, fact: string): boolean {
  const head = /^[\p{L}\p{N}]/u.test(fact);
  const tail = /[\p{L}\p{N}]$/u.test(fact);
  for (let index = text.indexOf(fact); index !== -1; index = text.indexOf(fact, index + 1)) {
    const before = index === 0 ? '' : text[index - 1]!;
    const after = text[index + fact.length] ?? '';
    if ((!head || !/[\p{L}\p{N}]/u.test(before)) && (!tail || !/[\p{L}\p{N}]/u.test(after))) return true;
  }
  return false;
}

/** A language id for an elided original, from its content, so it opens highlighted. */
export function guessLanguage(text: string): string {
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    try {
      JSON.parse(text);
      return 'json';
    } catch {
      // Not JSON after all: fall through to the other shapes.
    }
  }
  if (/^diff --git |^--- .*\n\+\+\+ /m.test(text)) return 'diff';
  if (/^<!doctype html|^<html/i.test(start)) return 'html';
  if (start.startsWith('<?xml')) return 'xml';
  if (/^Traceback \(most recent call last\)/m.test(text)) return 'python';
  return 'plaintext';
}

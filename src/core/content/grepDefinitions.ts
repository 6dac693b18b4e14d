/**
 * Grep hits under a question that asks where something is defined ("where is retry defined, not
 * just used?"): the hits that define a name holding the searched word, as grep printed them (path
 * and line number are what an answer cites) with the context lines grep printed around them, and
 * one line counting the other hits by file. The uses stay in the original behind the digest's marker.
 *
 * The searched word is the question's word that most match lines hold (grep printed them because
 * they hold its pattern). A definition is read by the syntax most languages share: a keyword that
 * introduces a name (`function`, `def`, `class`, `fn`, `func`, `struct`, `interface`, `type`,
 * `enum`, `trait`, `const`/`let`/`var` bound to a function), a method written as `name (…) {`, or
 * `name: function`/`name = (…) =>`.
 */
import { parseGrepLine } from './grep';
import { splitLines, stripAnsi, trailingNewline } from './limits';
import { questionWords } from './question';
import { checkDeadline } from '../pipeline/deadline';

/** A question that asks where a name is defined, declared or implemented. */
const ASKS_DEFINITION = /\b(?:defined|declared|definitions?|declarations?|defines)\b|\bwhere\b[^?.!]*\b(?:implemented|introduced|define)\b/i;

/** Whether the question asks where something is defined. */
export function asksForDefinition(question: string | undefined): boolean {
  return question !== undefined && ASKS_DEFINITION.test(question);
}

interface Hit {
  /** The line as grep printed it. */
  readonly raw: string;
  readonly path: string;
  readonly line?: number;
  readonly context: boolean;
  readonly text: string;
  /** Index of the grep group (`--` separates groups). */
  readonly group: number;
}

/** Whether `text` (a hit's source line) defines a name that holds `word`. */
export function definesName(text: string, word: string): boolean {
  let pattern = DEFINITION_PATTERNS.get(word);
  if (pattern === undefined) {
    pattern = definitionPattern(word);
    DEFINITION_PATTERNS.set(word, pattern);
    if (DEFINITION_PATTERNS.size > 64) DEFINITION_PATTERNS.delete(DEFINITION_PATTERNS.keys().next().value as string);
  }
  return pattern.test(text);
}

/** Each searched word's definition pattern, built once (a long grep output tests it on every hit). */
const DEFINITION_PATTERNS = new Map<string, RegExp>();

function definitionPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const name = `[\\w$]*${escaped}[\\w$]*`;
  return new RegExp(
    [
      `\\b(?:function\\s*\\*?|def|class|fn|fun|func(?:\\s*\\([^)]*\\))?|struct|interface|type|enum|trait|module|macro_rules!)\\s+${name}\\b`,
      // Java, C#, Kotlin, TypeScript members: modifiers, maybe a return type, the name and its parameters.
      `^\\s*(?:(?:public|private|protected|internal|static|final|abstract|async|override|virtual|synchronized|open|suspend)\\s+)+(?:[\\w<>[\\],.?]+\\s+)?${name}\\s*(?:<[^>]*>)?\\(`,
      `\\b(?:const|let|var|val)\\s+${name}\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*=>|[\\w$]+\\s*=>)`,
      `^\\s*(?:(?:static|async|public|private|protected|override|get|set)\\s+)*\\*?#?${name}\\s*\\([^)]*\\)\\s*(?::\\s*[^{]+)?\\{\\s*$`,
      `^\\s*${name}\\s*[:=]\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*=>)`,
    ].join('|'),
    'i',
  );
}

/**
 * The hits that answer a definition question, or undefined when the question asks no such thing,
 * the text does not parse as hits, or no hit defines the searched word.
 */
export function definitionHitsOf(text: string, question: string | undefined): { text: string; definitions: number; uses: number } | undefined {
  if (!asksForDefinition(question)) return undefined;
  const hits: Hit[] = [];
  let group = 0;
  for (const line of splitLines(stripAnsi(text))) {
    checkDeadline();
    if (line === '--') {
      group++;
      continue;
    }
    if (line.trim() === '') continue;
    const hit = parseGrepLine(line);
    if (hit === undefined || hit.line === undefined) return undefined;
    hits.push({ ...hit, raw: line, group });
  }
  const matches = hits.filter((hit) => !hit.context);
  const word = searchedWord(matches, question!);
  if (word === undefined) return undefined;
  const definitions = new Set(matches.filter((hit) => definesName(hit.text, word)));
  if (definitions.size === 0) return undefined;
  // A definition keeps the lines grep printed next to it in its group (its context).
  const kept = new Set<Hit>();
  hits.forEach((hit, index) => {
    if (!definitions.has(hit)) return;
    kept.add(hit);
    for (const near of [hits[index - 1], hits[index + 1]]) if (near !== undefined && near.group === hit.group && near.path === hit.path && Math.abs((near.line ?? 0) - (hit.line ?? 0)) === 1) kept.add(near);
  });
  // The kept hits stay as grep printed them (path and line number are what an answer cites), in
  // their order, `--` between runs that do not touch; one line counts each file's other hits.
  const output: string[] = [];
  let previous: Hit | undefined;
  const others = new Map<string, number>();
  for (const hit of hits) {
    if (!hit.context && !definitions.has(hit)) others.set(hit.path, (others.get(hit.path) ?? 0) + 1);
    if (!kept.has(hit)) continue;
    if (previous !== undefined && (previous.group !== hit.group || previous.path !== hit.path || (hit.line ?? 0) !== (previous.line ?? 0) + 1)) output.push('--');
    output.push(hit.raw);
    previous = hit;
  }
  const byFile = [...others];
  const uses = byFile.slice(0, LISTED_FILES).map(([path, count]) => `${path === '' ? 'this file' : path} ${count}`);
  if (byFile.length > LISTED_FILES) uses.push(`${byFile.length - LISTED_FILES} more files ${byFile.slice(LISTED_FILES).reduce((sum, [, count]) => sum + count, 0)}`);
  output.push(`[${definitions.size} hit${definitions.size === 1 ? '' : 's'} above define a name holding "${word}"; the other hits, by file: ${uses.join(', ')}]`);
  return { text: output.join('\n') + trailingNewline(text), definitions: definitions.size, uses: matches.length - definitions.size };
}

/** Files named one by one in the count of the other hits; the rest are summed. */
const LISTED_FILES = 20;

/** The question's word that the most match lines hold (at least half of them), lower-cased. */
function searchedWord(matches: readonly Hit[], question: string): string | undefined {
  let best: { word: string; count: number } | undefined;
  const texts = matches.map((hit) => hit.text.toLowerCase());
  for (const word of questionWords(question)) {
    if (word.length < 3) continue;
    const lower = word.toLowerCase();
    const count = texts.filter((text) => text.includes(lower)).length;
    if (best === undefined || count > best.count) best = { word: lower, count };
  }
  return best !== undefined && best.count >= matches.length / 2 ? best.word : undefined;
}

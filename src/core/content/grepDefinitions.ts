/**
 * Grep hits under a question that asks where something is defined ("where is retry defined, not
 * just used?"): the hits that define a name holding the searched word, each with the context
 * lines grep printed around it, and for every file the count of the other hits. The uses stay in
 * the original behind the digest's marker.
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
const ASKS_DEFINITION = /\bwhere\b[^?.!]*\b(?:defined|declared|implemented|introduced)\b|\b(?:definitions?|declarations?)\s+of\b|\bwhich\s+(?:file|line|module)\s+defines\b|\bwhere\b[^?.!]*\bdefines?\b/i;

/** Whether the question asks where something is defined. */
export function asksForDefinition(question: string | undefined): boolean {
  return question !== undefined && ASKS_DEFINITION.test(question);
}

interface Hit {
  readonly path: string;
  readonly line?: number;
  readonly context: boolean;
  readonly text: string;
  /** Index of the grep group (`--` separates groups). */
  readonly group: number;
}

/** Whether `text` (a hit's source line) defines a name that holds `word`. */
export function definesName(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const name = `[\\w$]*${escaped}[\\w$]*`;
  const pattern = new RegExp(
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
  return pattern.test(text);
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
    hits.push({ ...hit, group });
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
  const output: string[] = [];
  const files = new Map<string, Hit[]>();
  for (const hit of hits) {
    const inFile = files.get(hit.path);
    if (inFile === undefined) files.set(hit.path, [hit]);
    else inFile.push(hit);
  }
  for (const [path, inFile] of files) {
    const defined = inFile.filter((hit) => definitions.has(hit)).length;
    const uses = inFile.filter((hit) => !hit.context && !definitions.has(hit)).length;
    const label = path === '' ? '' : `${path} `;
    if (defined === 0) {
      output.push(`${label}(${uses} hit${uses === 1 ? '' : 's'}, none defines ${word})`);
      continue;
    }
    output.push(`${label}(${defined} definition${defined === 1 ? '' : 's'} of ${word}; ${uses} other hit${uses === 1 ? '' : 's'})`);
    let previous: Hit | undefined;
    for (const hit of inFile) {
      if (!kept.has(hit)) continue;
      if (previous !== undefined && (previous.group !== hit.group || (hit.line ?? 0) !== (previous.line ?? 0) + 1)) output.push('  --');
      output.push(`  ${hit.line}${hit.context ? '-' : ':'}${hit.text}`);
      previous = hit;
    }
  }
  return { text: output.join('\n') + trailingNewline(text), definitions: definitions.size, uses: matches.length - definitions.size };
}

/** The question's word that the most match lines hold (at least half of them), lower-cased. */
function searchedWord(matches: readonly Hit[], question: string): string | undefined {
  let best: { word: string; count: number } | undefined;
  for (const word of questionWords(question)) {
    if (word.length < 3) continue;
    const lower = word.toLowerCase();
    const count = matches.filter((hit) => hit.text.toLowerCase().includes(lower)).length;
    if (best === undefined || count > best.count) best = { word: lower, count };
  }
  return best !== undefined && best.count >= matches.length / 2 ? best.word : undefined;
}

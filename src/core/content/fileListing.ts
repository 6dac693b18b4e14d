/**
 * File listings (find, ls -R, ls -l, tree, git ls-files): paths grouped by folder, each
 * folder on one line with its count and the names in it; a crowded folder lists its
 * first names and sums up the rest by extension.
 */
import { MAX_PATTERN_LINE_CHARS, splitLines, stripAnsi, trailingNewline } from './limits';
import { cleanResult, unchanged, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';

/** Names listed per folder before the rest is summed up by extension. */
export const NAMES_PER_FOLDER = 100;

/** Generated or vendored folders: counted, never listed. */
const GENERATED_FOLDER = /(?:^|\/)(?:__pycache__|node_modules|\.git|\.hg|\.svn|\.mypy_cache|\.pytest_cache|\.ruff_cache|\.tox|\.nox|\.venv|venv|\.cache|\.next|\.gradle|[^/]+\.egg-info|target\/(?:debug|release))(?:\/|$)/;

const LONG_FORMAT = /^[-dlcbps][-rwxsStT@+.]{9,10}\s+\d+\s+\S+\s+\S+\s+[\d,.]+[KMGT]?\s+\S+\s+\S+\s+\S+\s(.+)$/;
const TREE_PREFIX = /^((?:[│|] {3}| {4}|[│|]\u00a0\u00a0 )*)(?:├── |└── |\|-- |`-- |\+-- )(.*)$/;

/** Every path the listing names, relative as written; folders end with '/'. */
export function listingPaths(lines: readonly string[]): string[] | undefined {
  const paths: string[] = [];
  let folder = '';
  const treeStack: string[] = [];
  const isTree = lines.some((line) => TREE_PREFIX.test(line));
  let treeRoot: string | undefined;
  for (const raw of lines) {
    checkDeadline();
    const line = raw.trimEnd();
    if (line === '' || line.length > MAX_PATTERN_LINE_CHARS) continue;
    if (/^total \d+/.test(line)) continue;
    if (/^\d+ director(?:y|ies)(?:, \d+ files?)?$/.test(line)) continue;
    const tree = TREE_PREFIX.exec(line);
    if (tree !== null) {
      const depth = Math.round(tree[1]!.replace(/\u00a0/g, ' ').length / 4);
      treeStack.length = depth;
      const name = tree[2]!;
      treeStack.push(name);
      paths.push([treeRoot, ...treeStack].filter((part) => part !== undefined && part !== '.').join('/'));
      continue;
    }
    if (line.endsWith(':') && !line.includes(' ') && paths.length >= 0) {
      // ls -R: "dir:" opens a section.
      folder = line.slice(0, -1).replace(/\/$/, '');
      continue;
    }
    const long = LONG_FORMAT.exec(line);
    const name = long !== null ? long[1]!.replace(/ -> .*$/, '') + (line.startsWith('d') ? '/' : '') : line.trim();
    if (name === '.' || name === '..' || name === './' || name === '../') continue;
    if (treeStack.length === 0 && paths.length === 0 && folder === '' && /^[.\w~/-][^\s]*$/.test(name) && isTree) {
      treeRoot = name === '.' ? undefined : name.replace(/\/$/, '');
      continue;
    }
    if (/\s{2,}/.test(name) && long === null) return undefined; // columns of plain ls: not one path per line
    paths.push(folder === '' || folder === '.' ? name : `${folder}/${name}`);
  }
  return paths;
}

/** Groups a listing by folder. */
export function cleanFileListing(text: string): CleanResult {
  const lines = splitLines(stripAnsi(text));
  const paths = listingPaths(lines);
  if (paths === undefined || paths.length < 8) return unchanged(text, 'file-listing');
  const folders = new Map<string, string[]>();
  for (const path of paths) {
    const isFolder = path.endsWith('/');
    const trimmed = isFolder ? path.slice(0, -1) : path;
    const slash = trimmed.lastIndexOf('/');
    const folder = slash === -1 ? '.' : trimmed.slice(0, slash) || '/';
    const name = (slash === -1 ? trimmed : trimmed.slice(slash + 1)) + (isFolder ? '/' : '');
    const names = folders.get(folder) ?? [];
    names.push(name);
    folders.set(folder, names);
  }
  const output: string[] = [];
  for (const folder of [...folders.keys()].sort()) {
    const names = folders.get(folder)!;
    if (GENERATED_FOLDER.test(folder)) {
      output.push(`${folder}/ (${names.length}, generated: not listed)`);
      continue;
    }
    const shown = names.slice(0, NAMES_PER_FOLDER);
    let line = `${folder}/ (${names.length}): ${shown.join(', ')}`;
    if (names.length > shown.length) {
      const extensions = new Map<string, number>();
      for (const name of names.slice(NAMES_PER_FOLDER)) {
        const extension = /(\.[\w-]{1,12})$/.exec(name)?.[1] ?? (name.endsWith('/') ? 'folders' : 'other');
        extensions.set(extension, (extensions.get(extension) ?? 0) + 1);
      }
      const summary = [...extensions].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([extension, count]) => `${count} ${extension}`);
      line += `, … ${names.length - shown.length} more (${summary.join(', ')})`;
    }
    output.push(line.replace(/^\.\/\//, './').replace(/^\/\/ /, '/ '));
  }
  const cleaned = output.join('\n') + trailingNewline(text);
  if (cleaned.length >= text.length) return unchanged(text, 'file-listing');
  return cleanResult(text, cleaned, 'file-listing', [`${paths.length} paths grouped into ${folders.size} folders`]);
}

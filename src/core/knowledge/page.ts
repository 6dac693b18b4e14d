/** Turns one Markdown file into a {@link Page}, or the problems that stop it loading. */
import { sha256 } from '../pipeline/hash';
import { countTokens } from '../tokens';
import { parseFrontMatter, READ_WHOLE_TYPES } from './frontMatter';
import { findLinks, splitSections } from './markdown';
import type { LibraryProblem, Page } from './types';

/** Parses a page file. `relativePath` uses forward slashes and ends in `.md`. */
export function parsePage(relativePath: string, source: string): { page: Page } | { problems: LibraryProblem[] } {
  const front = parseFrontMatter(source);
  if (!front.ok) return { problems: front.problems.map((problem) => ({ code: 'front-matter-invalid', file: relativePath, line: problem.line, message: problem.message })) };
  const { meta, body } = front;
  const id = meta.id ?? relativePath.replace(/\.md$/i, '').toLowerCase().replace(/[^a-z0-9/_-]+/g, '-');
  const slash = relativePath.lastIndexOf('/');
  const folder = slash < 0 ? '' : relativePath.slice(0, slash);
  return {
    page: {
      id,
      path: relativePath,
      folder,
      meta,
      body,
      tokens: countTokens(body),
      sections: splitSections(id, meta.title, body),
      links: findLinks(body),
      hash: sha256(source),
      readWhole: meta.read_whole ?? READ_WHOLE_TYPES.has(meta.type),
    },
  };
}

/** `read_page`: one whole page by id, for an agent that was given its page_id. */
import { countTokens } from '../tokens';
import type { Library } from './library';
import { renderFullPage } from './render';
import { hiddenBecause, isoDay } from './visibility';

/** Who is reading, for the same exclusions get_context applies. */
export interface ReadPageOptions {
  readonly viewer?: string;
  readonly allowedFolders?: readonly string[];
  readonly now?: () => Date;
}

/** A page as read_page returns it. */
export interface ReadPageResult {
  readonly page_id: string;
  readonly title: string;
  readonly type: string;
  /** The page labelled as in a bundle, in full. */
  readonly markdown: string;
  readonly tokens: number;
  /** The attached file's path inside the library, when the page has one. */
  readonly file?: string;
}

/**
 * The page with this id, or undefined when there is none the reader may see: drafts,
 * expired pages, other people's private notes and folders outside the reader's access
 * are answered exactly like a missing page, so their existence does not leak.
 */
export function readPage(library: Library, id: string, options: ReadPageOptions = {}): ReadPageResult | undefined {
  const page = library.page(id);
  if (!page) return undefined;
  const today = isoDay(options.now?.() ?? new Date());
  if (hiddenBecause(page, { viewer: options.viewer, allowedFolders: options.allowedFolders, today }) !== undefined) return undefined;
  const markdown = renderFullPage(page, options.viewer);
  return { page_id: page.id, title: page.meta.title, type: page.meta.type, markdown, tokens: countTokens(markdown), file: page.meta.file };
}

/**
 * What a caller may see. Drafts, expired pages, other people's private notes, and anything
 * outside the folders or tags asked for are never searched, sent or read.
 */
import type { Page } from './types';

/** Who is asking and what they asked to be limited to. */
export interface Audience {
  /** The connection's user; their own private notes come back, labelled as theirs. */
  readonly viewer?: string;
  /** Folders the connection may see (a key limited to some folders); all when absent. */
  readonly allowedFolders?: readonly string[];
  /** Only this folder and its subfolders (the `folder` argument). */
  readonly folder?: string;
  /** Only pages carrying at least one of these tags (the `tags` argument). */
  readonly tags?: readonly string[];
  /** Today, YYYY-MM-DD; a page expires after its `expires` day. */
  readonly today: string;
}

/** Why a page is hidden, or undefined when it is visible. */
export function hiddenBecause(page: Page, audience: Audience): string | undefined {
  if (page.meta.status !== 'published') return 'draft';
  if (page.meta.expires !== undefined && page.meta.expires < audience.today) return 'expired';
  if (page.meta.private && page.meta.owner !== audience.viewer) return 'private';
  if (audience.allowedFolders && !audience.allowedFolders.some((folder) => inFolder(page, folder))) return 'folder-not-allowed';
  if (audience.folder !== undefined && !inFolder(page, audience.folder)) return 'outside-folder';
  if (audience.tags && audience.tags.length > 0 && !audience.tags.some((tag) => page.meta.tags.includes(tag.toLowerCase()))) return 'outside-tags';
  return undefined;
}

export function isVisible(page: Page, audience: Audience): boolean {
  return hiddenBecause(page, audience) === undefined;
}

/** Whether a page is in `folder` or below it ('' is the whole library). */
export function inFolder(page: Page, folder: string): boolean {
  const normalized = folder.replace(/^\.?\/+|\/+$/g, '');
  return normalized === '' || page.folder === normalized || page.folder.startsWith(`${normalized}/`);
}

/** YYYY-MM-DD of a date, in UTC so the same instant gives the same day everywhere. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The link fields of an API object: a REST response spells out the addresses of a dozen other
 * endpoints (`forks_url`, `keys_url`, `hooks_url`, …) beside its data. Folded to one field, they
 * leave the object's data readable; its own address and page stay.
 */

/** A field holding a link: its key ends in `url` or is `href`, and its value is a URL or a URL template. */
const LINK_KEY = /(?:^|_)url$|^href$/i;
const LINK_VALUE = /^(?:https?|git|ssh):\/\/\S+$|^git@\S+$/;
/** An object holding at least this many links is hypermedia boilerplate around its data. */
const LINK_FIELDS_MIN = 8;
/** Links that name the object itself stay: its API address and its page. */
const IDENTITY_LINK = /^(?:url|html_url|href|web_url|self)$/i;
/** A question about links themselves keeps them all. */
const LINK_WORD = /^(?:urls?|links?|endpoints?|hrefs?|hypermedia|addresses)$/;
/** The key standing in for an object's elided links. */
export const LINKS_KEY = '…links';

/**
 * The link fields of an object to elide (an API response's `forks_url`, `keys_url`, … that only
 * spell out addresses of other endpoints), or undefined when it holds too few: the object's own
 * address and page stay, and so does a link whose key names a word of the question; a question
 * about links, URLs or endpoints keeps them all.
 */
export function elidedLinks(value: { readonly [key: string]: unknown }, questionWords: readonly string[]): Set<string> | undefined {
  const links: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string' && LINK_KEY.test(key) && LINK_VALUE.test(field)) links.push(key);
  }
  if (links.length < LINK_FIELDS_MIN || questionWords.some((word) => LINK_WORD.test(word))) return undefined;
  const elided = links.filter((key) => !IDENTITY_LINK.test(key) && !questionWords.some((word) => key.toLowerCase().includes(word)));
  return elided.length >= LINK_FIELDS_MIN / 2 ? new Set(elided) : undefined;
}

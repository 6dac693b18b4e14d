/**
 * The words search sees: the shared code-aware tokenizer (`src/core/relevance`, Porter
 * stemming, stop words dropped), less a few words that say nothing about a task's topic
 * in a knowledge library ("write", "use", "get"). One function, so every part of the
 * library tokenizes alike.
 */
import { porterStem } from '../relevance/porterStemmer';
import { tokenizeForSearch } from '../relevance/searchTokenizer';

/** Words common to nearly every task phrasing; their stemmed forms are dropped. */
const TASK_WORDS: ReadonlySet<string> = new Set(['write', 'writing', 'use', 'using', 'get', 'make', 'after', 'before', 'over', 'via', 'not', 'up', 'we', 'our', 'us', 'tell', 'say', 'need', 'want', 'help', 'know', 'like'].map((word) => porterStem(word)));

/** Search terms of a text, in order (repeats kept, so term frequency counts). */
export function searchTokens(text: string): string[] {
  return tokenizeForSearch(text).filter((term) => !TASK_WORDS.has(term));
}

/** Distinct search terms of a text. */
export function searchTermSet(text: string): Set<string> {
  return new Set(searchTokens(text));
}

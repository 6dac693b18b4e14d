/**
 * A quality measure for history optimization without a model: of the code-like facts
 * (identifiers with `_`, `.`, `/` or camelCase, paths, numbers of two digits or more) that the
 * agent's next reply used and that stood in the history of the request it answered, how many
 * the optimized request still shows. The fresh input is left out: it is never altered. A fact
 * the reply used that the optimized history hides is one the model would have had to
 * retrieve (every elision stays retrievable by its handle) or do without.
 */
import type { ChatMessage } from '../../src/core/chat/types';
import { messageText } from '../../src/core/chat/types';
import { freshStartOf } from '../../src/core/pipeline/freshInput';

const WORD = /[A-Za-z_][\w./-]*\w|\d{2,}/g;
const CODE_LIKE = /[_./]|\d|[a-z][A-Z]/;

/** The code-like facts of a text. */
export function factsIn(text: string): Set<string> {
  const facts = new Set<string>();
  for (const match of text.matchAll(WORD)) if (CODE_LIKE.test(match[0])) facts.add(match[0]);
  return facts;
}

/** Facts of `reply` found in the original history, and how many of them the optimized history shows. */
export function factRecall(original: readonly ChatMessage[], optimized: readonly ChatMessage[], reply: ChatMessage): { used: number; visible: number } {
  const freshStart = freshStartOf(original);
  const historyFacts = factsIn(original.slice(0, freshStart).map(messageText).join('\n'));
  const freshFacts = factsIn(original.slice(freshStart).map(messageText).join('\n'));
  const shown = factsIn(optimized.slice(0, freshStart).map(messageText).join('\n'));
  let used = 0;
  let visible = 0;
  for (const fact of factsIn(messageText(reply))) {
    if (freshFacts.has(fact) || !historyFacts.has(fact)) continue;
    used++;
    if (shown.has(fact)) visible++;
  }
  return { used, visible };
}

/**
 * The same measure for the fresh input, which Herald now digests on arrival: of the code-like
 * facts the next reply used that stood only in the request's fresh input (not in its history),
 * how many the optimized fresh input still shows.
 */
export function freshFactRecall(original: readonly ChatMessage[], optimized: readonly ChatMessage[], reply: ChatMessage): { used: number; visible: number } {
  const freshStart = freshStartOf(original);
  const historyFacts = factsIn(original.slice(0, freshStart).map(messageText).join('\n'));
  const freshFacts = factsIn(original.slice(freshStart).map(messageText).join('\n'));
  const shown = factsIn(optimized.slice(freshStart).map(messageText).join('\n'));
  let used = 0;
  let visible = 0;
  for (const fact of factsIn(messageText(reply))) {
    if (!freshFacts.has(fact) || historyFacts.has(fact)) continue;
    used++;
    if (shown.has(fact)) visible++;
  }
  return { used, visible };
}

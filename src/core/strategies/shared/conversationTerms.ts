/**
 * Which terms each tool output of a request introduced (seen in no earlier message), and which
 * of those a later reply took up, found in one pass over the messages forward and one over the
 * replies backward: each message's terms are read once, however many outputs are asked about.
 * (Checking every output against every earlier and later message was quadratic: a 1,100-message
 * conversation spent 65% of a 95 s run there.)
 */
import type { Deadline } from '../../pipeline/deadline';
import { termsIn } from './terms';

/** What the conversation did with one output's new terms. */
export interface TermUsage {
  /** How many terms the output introduced (not seen in any earlier message). */
  readonly introduced: number;
  /** The introduced terms that reappear in the replies after it. */
  readonly reused: ReadonlySet<string>;
}

/** An output asked about: its text and the index of the message it sits in. */
export interface AskedOutput {
  readonly text: string;
  readonly messageIndex: number;
}

/**
 * The usage of each asked output, by the output object.
 *
 * @param texts every message's text, in request order.
 * @param replies per message, the text that counts as the conversation's reply ('' where none).
 */
/** Terms handled between two looks at the deadline. */
const TERMS_PER_CHECK = 8_192;

export function termUsage<T extends AskedOutput>(texts: readonly string[], replies: readonly string[], asked: readonly T[], deadline?: Deadline): Map<T, TermUsage> {
  const usage = new Map<T, TermUsage>();
  if (asked.length === 0) return usage;
  const byIndex = [...asked].sort((left, right) => left.messageIndex - right.messageIndex);
  // One text of random ids holds hundreds of thousands of terms: the deadline is looked at every few thousand.
  let steps = 0;
  const step = (): void => {
    if (++steps % TERMS_PER_CHECK === 0) deadline?.check();
  };
  const introduced = new Map<T, string[]>();
  // Forward: every term seen so far; an asked output's new terms are those not in it yet.
  const seen = new Set<string>();
  let next = 0;
  for (let index = 0; next < byIndex.length; index++) {
    while (next < byIndex.length && byIndex[next]!.messageIndex === index) {
      const output = byIndex[next++]!;
      const fresh: string[] = [];
      for (const term of termsIn(output.text)) {
        step();
        if (!seen.has(term)) fresh.push(term);
      }
      introduced.set(output, fresh);
      deadline?.check();
    }
    if (next >= byIndex.length || index >= texts.length) break;
    for (const term of termsIn(texts[index]!)) {
      step();
      seen.add(term);
    }
    deadline?.check();
  }
  // Backward over the replies after the first asked output: the first reply met carrying a term is the last one.
  const wanted = new Set<string>();
  for (const terms of introduced.values()) {
    deadline?.check();
    for (const term of terms) {
      step();
      wanted.add(term);
    }
  }
  const lastReply = new Map<string, number>();
  const firstAsked = byIndex[0]!.messageIndex;
  for (let index = replies.length - 1; index > firstAsked; index--) {
    if (replies[index] === '') continue;
    for (const term of termsIn(replies[index]!)) {
      step();
      if (wanted.has(term) && !lastReply.has(term)) lastReply.set(term, index);
    }
    deadline?.check();
  }
  for (const output of asked) {
    deadline?.check();
    const terms = introduced.get(output) ?? [];
    const reused = new Set<string>();
    for (const term of terms) {
      step();
      if ((lastReply.get(term) ?? -1) > output.messageIndex) reused.add(term);
    }
    usage.set(output, { introduced: terms.length, reused });
  }
  return usage;
}

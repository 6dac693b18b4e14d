/**
 * A session replayed the way `herald optimize` runs it: each request in a process of its own,
 * sharing only what the stash folder keeps (the stored originals, the memo and the pins, saved
 * and loaded as JSON), and each optimized request expanded by yet another process (`herald
 * expand`). What one process elided must still expand after any later one has run.
 */
import { MessageMemo, Pipeline, SessionStateStore } from '../../../src/core/pipeline';
import type { BlobStore } from '../../../src/core/stash/blobStore';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import type { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { expandsBack } from '../replay';
import type { ClientSession } from './types';

export interface ProcessReplay {
  readonly requests: number;
  /** Indexes of the requests whose optimized form did not expand back to the original. */
  readonly notLossless: readonly number[];
  readonly durations: readonly number[];
}

export async function replayProcessByProcess(session: ClientSession, tokens: TokenCounter, limit = Infinity, store: BlobStore = new MemoryBlobStore()): Promise<ProcessReplay> {
  const key = new Uint8Array(32).fill(7);
  let memo = new MessageMemo();
  let state = new SessionStateStore();
  const notLossless: number[] = [];
  const durations: number[] = [];
  const requests = session.requests.slice(0, limit);
  for (const [index, entry] of requests.entries()) {
    // A new process: a stash that has seen nothing, the memo and pins as the folder saved them.
    memo = MessageMemo.fromJSON(JSON.parse(JSON.stringify(memo)));
    state = SessionStateStore.fromJSON(JSON.parse(JSON.stringify(state)));
    const pipeline = new Pipeline(createStrategies(), {}, { stash: new Stash({ store, key }), tokens, memo, state });
    const result = await pipeline.run(entry.request);
    durations.push(result.durationMs);
    const expander = new Stash({ store, key });
    if (!(await expandsBack(entry.request, session.roundTrip(result.request), expander, result.elisions))) notLossless.push(index);
  }
  return { requests: requests.length, notLossless, durations };
}

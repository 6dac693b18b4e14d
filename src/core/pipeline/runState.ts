/**
 * What a run reads before it starts and writes when it ends, when the memo and pins live in a
 * store shared with other processes (`herald serve`'s workers, a team's replicas): strategies
 * read them synchronously, so the run loads them first. In one process with in-memory state
 * both are no-ops.
 *
 * Loaded: the decided history (by chain hash, up to the first message never decided), the
 * arrival forms of the messages after it (by chain, and by each message's own bytes with its
 * decided form so), the session's pins read fresh (another replica may
 * have served the last turn), and the stash entries those messages' elisions refer to (so this
 * process knows them as its own, as the process that elided them did: strategies leave an
 * issued marker alone, and every replica must decide alike).
 */
import { describeError } from '../errors';
import type { Stash } from '../stash/stash';
import type { MessageMemo } from './messageMemo';
import type { SessionStateStore } from './sessionState';

export interface RunState {
  readonly memo: MessageMemo;
  readonly state: SessionStateStore;
  readonly stash: Stash;
}

/** Loads what a run of a request with these chain hashes reads. Throws when the store cannot be read. */
export async function loadRunState(run: RunState, chain: readonly string[], freshStart: number, sessionId: string, ownKey: (index: number) => string): Promise<void> {
  if (!run.memo.shared && !run.state.shared) return;
  try {
    await load(run, chain, freshStart, sessionId, ownKey);
  } catch (error) {
    throw new Error(`Herald: the state store could not be read (${describeError(error).replace(/^Herald: /, '')}); nothing was optimized`);
  }
}

async function load({ memo, state, stash }: RunState, chain: readonly string[], freshStart: number, sessionId: string, ownKey: (index: number) => string): Promise<void> {
  const history = chain.slice(0, freshStart);
  await Promise.all([memo.prefetch(history), state.prefetch(sessionId)]);
  let frozen = 0;
  while (frozen < freshStart && memo.has(chain[frozen]!)) frozen++;
  const undecided = chain.slice(frozen, freshStart);
  // A message whose chain misses starts from its decided or arrival form by its own bytes (a
  // resumed conversation whose earlier messages changed), wherever that was decided.
  const own = undecided.map((_, offset) => ownKey(frozen + offset));
  await Promise.all([memo.prefetch(undecided, true), memo.prefetchOwn(own)]);
  const handles = [...memo.handlesOf(history.slice(0, frozen)), ...memo.handlesOf(undecided, true), ...memo.handlesOfOwn(own)].filter((handle) => !stash.issued(handle));
  await Promise.all([...new Set(handles)].map((handle) => stash.entry(handle)));
}

/** Writes what the run decided and the session's changed pins. Throws when the store cannot be written. */
export async function saveRunState({ memo, state }: Pick<RunState, 'memo' | 'state'>, sessionId: string): Promise<void> {
  if (!memo.shared && !state.shared) return;
  try {
    await Promise.all([memo.flush(), state.flush(sessionId)]);
  } catch (error) {
    throw new Error(`Herald: the state store could not be written (${describeError(error).replace(/^Herald: /, '')}); the decisions of this request were not kept`);
  }
}

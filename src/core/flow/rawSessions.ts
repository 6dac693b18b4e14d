/**
 * Sessions whose first request went out as the client sent it: the optimizer failed or ran past
 * its deadline (a cold start on a busy machine), so the provider cached the client's own tools
 * block. Every later request of such a session goes out with the client's tools block too, and
 * without Herald's own tools: a catalog, shortened descriptions or `herald_retrieve` appearing
 * on the second request would change the head of the cached prefix and make the provider write
 * the whole prompt again (measured: a Claude Code session's second request written whole, 25%
 * dearer than going direct). Herald's message edits still apply; their markers then promise no
 * retrieve (`markerPromise.ts`).
 *
 * Kept in memory, bounded, keyed by the pipeline's session id (`sessionIdOf`): a process that
 * did not see a session's first request leaves it as before.
 */
import { sessionIdOf } from '../pipeline/pipeline';
import type { ChatRequest } from '../chat/types';

export class RawSessions {
  private readonly ids = new Set<string>();

  constructor(private readonly maxSessions = 10_000) {}

  /** Notes the outcome of a request: a session's first request that went out as it came marks the session. */
  note(request: ChatRequest, wentOutAsItCame: boolean): void {
    if (!wentOutAsItCame || !isFirstOfSession(request)) return;
    const id = sessionIdOf(request);
    this.ids.delete(id);
    this.ids.add(id);
    if (this.ids.size > this.maxSessions) this.ids.delete(this.ids.values().next().value as string);
  }

  /** Whether `request` belongs to a session whose first request went out as the client sent it. */
  has(request: ChatRequest): boolean {
    return this.ids.size > 0 && !isFirstOfSession(request) && this.ids.has(sessionIdOf(request));
  }
}

/** A session's first request: the model has not answered in it yet. */
function isFirstOfSession(request: ChatRequest): boolean {
  return !request.messages.some((message) => message.role === 'assistant');
}

/** The process's record, used when a host passes none. */
export const RAW_SESSIONS = new RawSessions();

/**
 * cache_lint (signal): notices when the start of a session's request changes between turns,
 * which costs a provider cache miss. It keeps 64-bit hashes of three regions (the tools
 * block, the system prompt, and the stable message head: every message before the current
 * turn's fresh input) and compares them with the previous turn's. Each region is hashed twice:
 * as the client sent it and as Herald has rewritten it so far; a region that changed only in
 * Herald's version is "optimizer-explained", one the client changed is "client-volatile".
 * Only hashes and flags are kept: no text, names, arguments or keys.
 */
import type { ChatMessage, ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { sequenceDigest } from '../pipeline/hash';
import { shortHash } from './signals/shortHash';
import { CACHE_LINT_OPTIONS } from './options/cacheLintOptions';

/** 64 bits of a sequence's digest: each message and tool is hashed once (see `pipeline/hash.ts`), not the whole region again. */
function regionHash(values: readonly object[]): string {
  return sequenceDigest(values).slice(0, 16);
}

export const CACHE_LINT_ID = 'cache_lint';

/** One turn's region hashes, as the client sent them and as Herald wrote them. */
interface RegionHashes {
  readonly tools: string;
  readonly system: string;
  /** Hash of the head and how many messages it covered. */
  readonly head: string;
  readonly headCount: number;
}

interface Snapshot {
  readonly client: RegionHashes;
  readonly optimized: RegionHashes;
}

const SNAPSHOT_KEY = 'snapshot';
type Region = 'tools' | 'system' | 'head';
const REGIONS: readonly Region[] = ['tools', 'system', 'head'];

export function createCacheLint(): Strategy {
  return {
    id: CACHE_LINT_ID,
    defaultEnabled: true,
    kind: 'signal',
    defaults: {},
    optionSchema: CACHE_LINT_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const previous = context.state.get<Snapshot>(SNAPSHOT_KEY);
      const snapshot: Snapshot = { client: regionHashes(context.original, context.freshStart), optimized: regionHashes(request, context.freshStart) };
      context.state.set(SNAPSHOT_KEY, snapshot);
      const hashes = { toolsHash: snapshot.optimized.tools, systemHash: snapshot.optimized.system, headHash: snapshot.optimized.head };
      if (!previous) return { request, action: 'prefix-recorded', reason: 'first turn of the session: regions recorded', details: { firstTurn: true, ...hashes } };
      const changed: Record<Region, boolean> = { tools: false, system: false, head: false };
      let clientChanged = false;
      for (const region of REGIONS) {
        const now = region === 'head' ? headHashAt(request, previous.optimized.headCount) : snapshot.optimized[region];
        const clientNow = region === 'head' ? headHashAt(context.original, previous.client.headCount) : snapshot.client[region];
        changed[region] = now !== previous.optimized[region];
        if (changed[region] && clientNow !== previous.client[region]) clientChanged = true;
      }
      const any = changed.tools || changed.system || changed.head;
      const churn = !any ? 'none' : clientChanged ? 'client-volatile' : 'optimizer-explained';
      const names = REGIONS.filter((region) => changed[region]);
      return {
        request,
        action: any ? 'prefix-churn-detected' : 'prefix-stable',
        reason: any ? `${names.join(', ')} changed since the last turn (${churn})` : 'tools, system prompt and head unchanged since the last turn',
        details: { firstTurn: false, toolsChanged: changed.tools, systemChanged: changed.system, headChanged: changed.head, churn, explainedByHerald: any && !clientChanged, ...hashes },
      };
    },
  };
}

function regionHashes(request: ChatRequest, freshStart: number): RegionHashes {
  const systemCount = leadingSystemCount(request.messages);
  return {
    tools: regionHash(request.tools),
    system: regionHash(request.messages.slice(0, systemCount)),
    head: headHashAt(request, freshStart),
    headCount: freshStart,
  };
}

/** Hash of the first `count` messages after the system prompt (short when the request has fewer). */
function headHashAt(request: ChatRequest, count: number): string {
  const systemCount = leadingSystemCount(request.messages);
  const end = Math.max(systemCount, count);
  if (request.messages.length < end) return shortHash(['short', request.messages.length]);
  return regionHash(request.messages.slice(systemCount, end));
}

function leadingSystemCount(messages: readonly ChatMessage[]): number {
  let count = 0;
  while (count < messages.length && messages[count]!.role === 'system') count++;
  return count;
}

/** Small strategies for pipeline tests: each records what it saw. */
import type { ChatRequest } from '../../../src/core/chat';
import { findToolOutputs, replaceSegments } from '../../../src/core/chat';
import type { Strategy, StrategyContext } from '../../../src/core/pipeline';
import { countLines, MemoryBlobStore, Stash } from '../../../src/core/stash';

export function recordingStrategy(id: string, log: string[], transform?: (request: ChatRequest, context: StrategyContext) => ChatRequest): Strategy {
  return {
    id,
    defaultEnabled: true,
    apply(request, context) {
      log.push(id);
      const next = transform ? transform(request, context) : request;
      return { request: next, action: next === request ? 'nothing-to-do' : 'request-changed', reason: 'test' };
    },
  };
}

/** Elides every history tool output longer than `minLines` lines, like a simple masking strategy. */
export function elideLongOutputs(minLines = 5): Strategy {
  return {
    id: 'elide_long_outputs',
    defaultEnabled: true,
    apply(request, context) {
      const replacements = new Map<string, string>();
      const handles: string[] = [];
      for (const segment of findToolOutputs(request)) {
        if (segment.messageIndex < context.frozenCount || segment.messageIndex >= context.freshStart) continue;
        const lines = countLines(segment.text);
        if (lines < minLines) continue;
        const elision = context.stash.elide({ original: segment.text, summary: `${lines} lines elided`, kind: 'elide_long_outputs' });
        replacements.set(segment.key, elision.replacement);
        handles.push(elision.handle);
      }
      return { request: replaceSegments(request, replacements), action: 'tool-output-elided', reason: `${handles.length} outputs elided`, handles };
    },
  };
}

/** Deep-freezes a value so any mutation throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as Record<string, unknown>)) deepFreeze(inner);
  }
  return value;
}

/** A stash in memory under a fixed key (handles are the same from run to run). */
export function newStash(): Stash {
  return new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(9) });
}

/**
 * Runs one workload through a pipeline, as the one request it is: tokens before and after, which
 * key facts the optimized request still shows outside any marker, and whether every elision
 * expands back to the original.
 */
import { parseRequest, serializeRequest, type ChatRequest } from '../../../src/core/chat';
import { messageText } from '../../../src/core/chat/types';
import { Pipeline, type PipelineConfig } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { findMarkers } from '../../../src/core/stash/marker';
import { createStrategies } from '../../../src/core/strategies';
import type { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { expandsBack } from '../replay';
import { containsFact } from './facts';
import type { Workload } from './types';

export interface WorkloadResult {
  readonly id: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Facts the optimized request shows outside markers. */
  readonly visible: readonly string[];
  /** Facts hidden behind a marker (one retrieve away). */
  readonly hidden: readonly string[];
  readonly lossless: boolean;
  readonly durationMs: number;
  /** Strategy id → tokens it removed. */
  readonly savedBy: Readonly<Record<string, number>>;
  readonly optimized: ChatRequest;
}

/** The text a model reads: every message's text and the tool definitions, with Herald's markers cut out. */
export function visibleText(request: ChatRequest): string {
  const pieces = request.messages.map((message) => messageText(message));
  for (const tool of request.tools) pieces.push(`${tool.name}\n${tool.description ?? ''}\n${JSON.stringify(tool.inputSchema ?? {})}`);
  return pieces.map(withoutMarkers).join('\n');
}

function withoutMarkers(text: string): string {
  const markers = findMarkers(text);
  if (markers.length === 0) return text;
  let out = '';
  let cursor = 0;
  for (const marker of markers) {
    out += `${text.slice(cursor, marker.start)}\n`;
    cursor = marker.end;
  }
  return out + text.slice(cursor);
}

export async function runWorkload(workload: Workload, tokens: TokenCounter, config: PipelineConfig = {}): Promise<WorkloadResult> {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline(createStrategies(), config, { stash, tokens });
  const request = parseRequest(workload.body);
  const result = await pipeline.run(request);
  // Through the wire format, as the host sends it.
  const wire = parseRequest(JSON.parse(JSON.stringify(serializeRequest(result.request))));
  const text = visibleText(wire);
  const visible = workload.facts.filter((fact) => containsFact(text, fact));
  return {
    id: workload.id,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    visible,
    hidden: workload.facts.filter((fact) => !visible.includes(fact)),
    lossless: await expandsBack(request, wire, stash, result.elisions),
    durationMs: result.durationMs,
    savedBy: result.savedByStrategy,
    optimized: wire,
  };
}

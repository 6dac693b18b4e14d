/**
 * A real client session replayed through `herald serve`: every request the client sent goes
 * to the gateway as the client sent it (streamed), a fake provider on loopback answers each
 * with the reply the session recorded and keeps what it received, so a test or bench can
 * hold the provider's view against what `herald optimize` makes of the same requests.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRequest, serializeRequest, toAnthropic } from '../../src/core/chat';
import type { ChatMessage, ChatRequest } from '../../src/core/chat/types';
import type { CliIo } from '../../src/cli/io';
import { startServe } from '../../src/cli/serveCommand';
import { tenantStashKey } from '../../src/gateway/gatewayOptimizer';
import { tenantOfRequest } from '../../src/gateway/tenants';
import { FakeUpstream, type Answer } from '../unit/gateway/fakeUpstream';
import { anthropicEvents, type AnthropicBlock } from '../unit/gateway/providerAnswers';
import type { ClientSession } from './clients';

export interface GatewayReplay {
  /** What the provider received for each request, parsed, in order. */
  readonly received: readonly ChatRequest[];
  /** The provider's raw bodies, in order (for byte comparisons). */
  readonly bodies: readonly Record<string, unknown>[];
  /** The request bodies as the client sent them. */
  readonly sent: readonly Record<string, unknown>[];
  /** Milliseconds from sending each request to the first byte of its answer, and to its end. */
  readonly firstByteMs: readonly number[];
  readonly totalMs: readonly number[];
  /** The gateway's record of each request. */
  readonly records: readonly Record<string, unknown>[];
  /** The stash key of the replaying client's tenant (its handles are derived from it: a comparison replay uses the same one). */
  readonly stashKey: Uint8Array;
}

/** The replaying client's headers (its key makes its tenant). */
const CLIENT_HEADERS = { 'x-api-key': 'sk-ant-replay', 'anthropic-version': '2023-06-01' };

/** The recorded reply as the blocks the fake provider streams (thinking, text, tool calls). */
export function replyBlocks(reply: ChatMessage | undefined): AnthropicBlock[] {
  if (!reply) return [{ type: 'text', text: 'ok' }];
  const wire = toAnthropic({ format: 'anthropic', messages: [reply], tools: [], options: {} }).messages as { content: unknown }[];
  const content = Array.isArray(wire[0]?.content) ? (wire[0]!.content as Record<string, unknown>[]) : [{ type: 'text', text: String(wire[0]?.content ?? '') }];
  const blocks = content.flatMap((block): AnthropicBlock[] => {
    if (block.type === 'text' && typeof block.text === 'string') return [{ type: 'text', text: block.text }];
    if (block.type === 'thinking' && typeof block.thinking === 'string') return [{ type: 'thinking', thinking: block.thinking, signature: String(block.signature ?? '') }];
    if (block.type === 'tool_use') return [{ type: 'tool_use', id: String(block.id), name: String(block.name), input: (block.input ?? {}) as object }];
    return [];
  });
  return blocks.length > 0 ? blocks : [{ type: 'text', text: 'ok' }];
}

/** Replays a Claude Code session through a fresh gateway (its own stash folder), one request after another. */
export async function replayThroughGateway(session: ClientSession, options: { readonly args?: readonly string[]; readonly limit?: number } = {}): Promise<GatewayReplay> {
  const requests = session.requests.slice(0, options.limit ?? session.requests.length);
  const upstream = new FakeUpstream((_received, index): Answer => ({ kind: 'stream', events: anthropicEvents({ id: `msg_${index}`, blocks: replyBlocks(requests[index]?.reply) }) }));
  const url = await upstream.start();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-replay-'));
  const io: CliIo = { readStdin: async () => '', stdout: () => undefined, stderr: () => undefined };
  const workers = options.args?.includes('--workers') ? [] : ['--workers', '0'];
  // What optimize makes of each request, sent as it makes it: optimize prices every marker alike
  // (no flow, no round), so the gateway does too unless told otherwise.
  const pricing = options.args?.some((arg) => arg.endsWith('first-marker-round')) ? [] : ['--no-first-marker-round'];
  const serve = await startServe(['--port', '0', '--anthropic-base-url', url, '--stash', folder, '--quiet', ...workers, ...pricing, ...(options.args ?? [])], io);
  const sent: Record<string, unknown>[] = [];
  const firstByteMs: number[] = [];
  const totalMs: number[] = [];
  try {
    for (const { request } of requests) {
      const body = serializeRequest(request);
      sent.push(body);
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${serve.port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...CLIENT_HEADERS }, body: JSON.stringify(body) });
      const reader = response.body!.getReader();
      let first = true;
      for (;;) {
        const { done } = await reader.read();
        if (first) {
          firstByteMs.push(performance.now() - started);
          first = false;
        }
        if (done) break;
      }
      totalMs.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`Herald: the gateway answered ${response.status} on request ${sent.length}`);
    }
    const bodies = upstream.bodies('/v1/messages');
    const key = fs.readFileSync(path.join(folder, 'key'));
    const stashKey = tenantStashKey(key, tenantOfRequest(CLIENT_HEADERS, new URLSearchParams(), key));
    return { received: bodies.map((body) => parseRequest(body, 'anthropic')), bodies, sent, firstByteMs, totalMs, records: [...(serve.gateway.recent() as unknown as Record<string, unknown>[])], stashKey };
  } finally {
    await serve.stop();
    await upstream.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Turn N+1 repeats, byte for byte, every message of turn N's request but its last (ARCHITECTURE.md's
 * measure), and the system prompt; counted over consecutive requests.
 */
export function stablePrefixes(bodies: readonly Record<string, unknown>[]): number {
  let stable = 0;
  bodies.forEach((body, index) => {
    if (index === 0) {
      stable++;
      return;
    }
    const previous = bodies[index - 1]!;
    const before = (previous.messages as unknown[]).slice(0, -1);
    const now = body.messages as unknown[];
    const same = JSON.stringify(previous.system) === JSON.stringify(body.system) && before.every((message, position) => JSON.stringify(message) === JSON.stringify(now[position]));
    if (same) stable++;
  });
  return stable;
}

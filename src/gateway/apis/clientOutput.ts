/** Writing to the client: the status line once, SSE events as they come, a JSON body at the end. */
import type { ResponseChunk } from '../../core/flow/forwardTarget';
import { UsageTotals, type ClientOutput, type ClientWriter } from './wireApi';
import { formatSse, type SseEvent } from '../sse';

/** Streams events to the client; the status line and headers go out with the first event. */
export class SseOutput {
  started = false;

  constructor(private readonly output: ClientOutput) {}

  send(event: SseEvent): void {
    this.start();
    this.output.response.write(formatSse(event));
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const head = this.output.head();
    const headers = { ...(head?.headers ?? {}) };
    // A stream whatever the provider answered with (one that ignored `stream: true` answered JSON).
    if (!(headers['content-type'] ?? '').includes('text/event-stream')) headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] ??= 'no-cache';
    this.output.response.writeHead(head?.status ?? 200, headers);
    this.output.response.flushHeaders();
  }

  end(): void {
    this.start();
    this.output.response.end();
  }
}

/** Writes a whole JSON answer with the provider's status and headers. */
export function writeJsonAnswer(output: ClientOutput, body: unknown): void {
  const head = output.head();
  const text = JSON.stringify(body);
  output.response.writeHead(head?.status ?? 200, { ...(head?.headers ?? {}), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  output.response.end(text);
}

/**
 * What every API's stream writer shares: usage chunks summed over the rounds, the provider's
 * own events passed on one by one (each API rewrites indexes and ids its own way), and what
 * Herald answers itself (a cached answer) written in the API's shape.
 */
export abstract class SseStreamWriter implements ClientWriter {
  protected readonly sse: SseOutput;
  protected readonly usage = new UsageTotals();

  constructor(protected readonly output: ClientOutput) {
    this.sse = new SseOutput(output);
  }

  get started(): boolean {
    return this.sse.started;
  }

  write(chunk: ResponseChunk): void {
    if (chunk.type === 'usage') {
      this.usage.add(chunk.usage);
      return;
    }
    if (chunk.wire === undefined) {
      this.writeOwn(chunk);
      return;
    }
    for (const event of chunk.wire as readonly SseEvent[]) this.writeEvent(event);
  }

  /** One event of the provider's stream, as the client should see it. */
  protected abstract writeEvent(event: SseEvent): void;
  /** A chunk Herald wrote itself (no provider wire behind it). */
  protected abstract writeOwn(chunk: ResponseChunk): void;
  abstract finish(): void;
  abstract failAfterStart(message: string): void;
}

/** Writing to the client: the status line once, SSE events as they come, a JSON body at the end. */
import type { ClientOutput } from './wireApi';
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

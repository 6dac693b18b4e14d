/**
 * A provider on loopback that records every request it receives (headers, body, whether the
 * caller went away before the answer ended) and answers from a script: a streamed answer
 * event by event (with pauses, or hanging open), a JSON answer, or an error with its headers.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** The parsed body, when it was JSON. */
  readonly json: Record<string, unknown> | undefined;
  /** True when the caller closed the connection before the answer was complete. */
  aborted: boolean;
  /** performance.now() when the body had arrived, when the first byte of the answer went out, and when the answer ended. */
  readonly receivedAt: number;
  firstWriteAt?: number;
  endAt?: number;
}

export interface StreamEvent {
  readonly event?: string;
  readonly data: unknown;
}

export type Answer =
  | { readonly kind: 'stream'; readonly events: readonly StreamEvent[]; readonly delayMs?: number; readonly hang?: boolean; readonly headers?: Record<string, string> }
  | { readonly kind: 'json'; readonly body: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly kind: 'raw'; readonly status: number; readonly body: string; readonly headers?: Record<string, string> }
  /** A 200 that misbehaves: `body` sent as it is, then the answer ends, the connection is reset, or it hangs open. */
  | { readonly kind: 'broken'; readonly contentType: string; readonly body: string; readonly then: 'end' | 'reset' | 'hang' }
  /** No answer at all: not even the status line. */
  | { readonly kind: 'silent' };

export type Script = Answer | ((request: ReceivedRequest, index: number) => Answer);

export class FakeUpstream {
  readonly received: ReceivedRequest[] = [];
  private readonly server: http.Server;
  private port = 0;
  /** Resolves once a request's connection closed early (the disconnect test waits for it). */
  private readonly abortWaiters: (() => void)[] = [];

  constructor(private readonly script: Script | readonly Script[]) {
    this.server = http.createServer((request, response) => void this.answer(request, response));
    // A provider keeps an idle connection open for minutes. Node's default of 5 s, in a test
    // process a loaded machine stalls for seconds, closes the connection the gateway is reusing
    // for its next call at that moment (undici: UND_ERR_SOCKET, a 502 no provider causes).
    this.server.keepAliveTimeout = 10 * 60_000;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The parsed bodies of the requests to a path. */
  bodies(path: string): Record<string, unknown>[] {
    return this.received.filter((request) => request.url.split('?')[0]!.endsWith(path)).map((request) => request.json ?? {});
  }

  waitForAbort(): Promise<void> {
    if (this.received.some((request) => request.aborted)) return Promise.resolve();
    return new Promise((resolve) => this.abortWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    const received: ReceivedRequest = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, json, aborted: false, receivedAt: performance.now() };
    response.on('finish', () => {
      received.endAt = performance.now();
    });
    const index = this.received.length;
    this.received.push(received);
    response.on('close', () => {
      if (!response.writableFinished) {
        received.aborted = true;
        for (const waiter of this.abortWaiters.splice(0)) waiter();
      }
    });
    const scripts = Array.isArray(this.script) ? this.script : undefined;
    const step = scripts ? scripts[Math.min(index, scripts.length - 1)]! : (this.script as Script);
    const answer = typeof step === 'function' ? step(received, index) : step;
    if (answer.kind === 'json') {
      const text = JSON.stringify(answer.body);
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'request-id': `req_${index}`, ...(answer.headers ?? {}) });
      response.end(text);
      return;
    }
    if (answer.kind === 'silent') return;
    if (answer.kind === 'broken') {
      response.writeHead(200, { 'content-type': answer.contentType });
      response.write(answer.body);
      if (answer.then === 'end') response.end();
      else if (answer.then === 'reset') setTimeout(() => response.socket?.destroy(), 10);
      return;
    }
    if (answer.kind === 'raw') {
      response.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
      response.end(answer.body);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${index}`, ...(answer.headers ?? {}) });
    for (const event of answer.events) {
      if (response.destroyed) return;
      received.firstWriteAt ??= performance.now();
      response.write(`${event.event !== undefined ? `event: ${event.event}\n` : ''}data: ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}\n\n`);
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    }
    if (answer.hang) return;
    response.end();
  }
}

/**
 * Server-sent events as the gateway reads and writes them: an event is kept with its exact
 * text, so an event Herald does not change goes to the client byte for byte.
 */

/** One server-sent event. */
export interface SseEvent {
  /** The `event:` field, when there was one. */
  readonly event?: string;
  /** The `data:` lines joined with newlines. */
  readonly data: string;
  /** The event's exact text, without the blank line that ends it; absent for events Herald writes. */
  readonly raw?: string;
}

/** Splits a byte stream into events as they complete (a partial event waits for its end). */
export async function* readSse(stream: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary: RegExpExecArray | null;
    while ((boundary = /\r?\n\r?\n/.exec(buffer)) !== null) {
      const raw = buffer.slice(0, boundary.index);
      buffer = buffer.slice(boundary.index + boundary[0].length);
      const event = parseEvent(raw);
      if (event) yield event;
    }
  }
  buffer += decoder.decode();
  const last = parseEvent(buffer.replace(/\r?\n$/, ''));
  if (last) yield last;
}

function parseEvent(raw: string): SseEvent | undefined {
  if (raw.trim().length === 0) return undefined;
  let event: string | undefined;
  const data: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    else if (line.startsWith('event:')) event = line.slice(6).trim();
  }
  // A comment-only block (": keep-alive") has no data but is still passed through.
  return { ...(event !== undefined ? { event } : {}), data: data.join('\n'), raw };
}

/** The text of an event on the wire, its closing blank line included. */
export function formatSse(event: SseEvent): string {
  if (event.raw !== undefined) return `${event.raw}\n\n`;
  const lines: string[] = [];
  if (event.event !== undefined) lines.push(`event: ${event.event}`);
  for (const line of event.data.split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

/** An event with new data: the same name, Herald's text. */
export function withData(event: SseEvent, data: unknown): SseEvent {
  return { ...(event.event !== undefined ? { event: event.event } : {}), data: JSON.stringify(data) };
}

/** The event's data as a JSON object, or undefined (a `[DONE]`, a comment, malformed data). */
export function dataObject(event: SseEvent): Record<string, unknown> | undefined {
  if (event.data.length === 0 || event.data === '[DONE]') return undefined;
  try {
    const value: unknown = JSON.parse(event.data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

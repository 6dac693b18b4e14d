/**
 * Loaders for the third held-out set (heldOutThree.ts): Claude Code sessions (spans built from
 * their recorded timestamps, ids, usage and is_error flags; several files read in one turn and the
 * edits the agent then made), the GitHub MCP server tools the own set's manifest leaves out,
 * Cranfield passages ranked by BM25, loghub Mac lines with their structured rows, and agent
 * observations of the trajectories. Every fact helper reads the source's own ground truth.
 */
import * as fs from 'node:fs';
import { loadTrajectory, sharedPath } from '../sharedData';
import { containsFact } from './facts';
import { constantPiece, type LabelledLine } from './heldOutTwoLogs';
import { cranfieldDocuments, cranfieldQueries, judgements, terms, type CranfieldDocument } from './rag';

// ---------------------------------------------------------------- Claude Code sessions

interface Block { readonly type: string; readonly id?: string; readonly name?: string; readonly input?: Record<string, unknown>; readonly tool_use_id?: string; readonly content?: unknown; readonly is_error?: boolean }
interface SessionEvent {
  readonly type: string;
  readonly timestamp?: string;
  readonly sessionId?: string;
  readonly message?: { readonly id?: string; readonly model?: string; readonly content?: unknown; readonly usage?: Record<string, number> };
}

/** The two long spotter sessions (marot/spotter): one adds message references to annotations, the other unifies the transcript views. */
export const ANNOTATIONS_SESSION = '258c7280-ae70-4798-800f-63464d01a85d';
export const TRANSCRIPT_SESSION = '4d5611e5-241a-462a-8d15-5122611a9569';

export function sessionEvents(session: string): SessionEvent[] {
  const text = fs.readFileSync(sharedPath('clients', 'claude-code', 'spotter', `${session}.jsonl`), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as SessionEvent);
}

function blocks(event: SessionEvent): Block[] {
  const content = event.message?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** A tool result's text as the model saw it. */
function resultText(block: Block): string {
  if (typeof block.content === 'string') return block.content;
  return Array.isArray(block.content) ? (block.content as { text?: string }[]).map((part) => part.text ?? '').join('') : '';
}

/** What a tool call was about, in one short line (the command, the file or the pattern). */
function inputSummary(input: Record<string, unknown> = {}): string {
  const value = input.command ?? input.file_path ?? input.pattern ?? input.description ?? input.task_id ?? '';
  return String(value).replace(/\s+/g, ' ').slice(0, 120);
}

const millis = (start: string, end: string): number => Math.max(0, Date.parse(end) - Date.parse(start));

/**
 * A session as OpenTelemetry-style spans, one JSON object a line: a `chat` span per model reply
 * (from the last user or tool-result event before it to its last block, with its recorded usage)
 * and an `execute_tool` span per tool call (from the call to its result). A tool span's status is
 * ERROR exactly when the session recorded `is_error` on its result; `failed` lists those span ids.
 */
export function sessionSpans(session: string): { lines: string[]; failed: string[] } {
  const events = sessionEvents(session);
  const traceId = session.replace(/-/g, '');
  const chats = new Map<string, { start: string; end: string; model: string; usage: Record<string, number> }>();
  const tools = new Map<string, { parent: string; name: string; start: string; input: string; end?: string; error?: string }>();
  let lastUser = events.find((event) => event.timestamp !== undefined)?.timestamp ?? '';
  for (const event of events) {
    if (event.timestamp === undefined) continue;
    if (event.type === 'user') {
      for (const block of blocks(event)) {
        const tool = block.type === 'tool_result' ? tools.get(block.tool_use_id ?? '') : undefined;
        if (tool === undefined) continue;
        tool.end = event.timestamp;
        if (block.is_error === true) tool.error = resultText(block).replace(/\s+/g, ' ').trim().slice(0, 200) || 'error';
      }
      lastUser = event.timestamp;
    } else if (event.type === 'assistant' && event.message?.id !== undefined) {
      const id = event.message.id;
      const chat = chats.get(id) ?? { start: lastUser, end: event.timestamp, model: event.message.model ?? '', usage: {} };
      chat.end = event.timestamp;
      chat.usage = event.message.usage ?? chat.usage;
      chats.set(id, chat);
      for (const block of blocks(event)) {
        if (block.type === 'tool_use' && block.id !== undefined) tools.set(block.id, { parent: id, name: block.name ?? '', start: event.timestamp, input: inputSummary(block.input) });
      }
    }
  }
  const spans: { start: string; text: string }[] = [];
  for (const [id, chat] of chats) {
    const attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': chat.model, 'gen_ai.usage.input_tokens': chat.usage.input_tokens ?? 0, 'gen_ai.usage.cache_read_input_tokens': chat.usage.cache_read_input_tokens ?? 0, 'gen_ai.usage.cache_creation_input_tokens': chat.usage.cache_creation_input_tokens ?? 0, 'gen_ai.usage.output_tokens': chat.usage.output_tokens ?? 0 };
    spans.push({ start: chat.start, text: JSON.stringify({ trace_id: traceId, span_id: id, parent_span_id: null, name: `chat ${chat.model}`, start_time: chat.start, end_time: chat.end, duration_ms: millis(chat.start, chat.end), status: 'OK', attributes }) });
  }
  const failed: string[] = [];
  for (const [id, tool] of tools) {
    const end = tool.end ?? tool.start;
    if (tool.error !== undefined) failed.push(id);
    const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool.name, 'tool.input': tool.input, ...(tool.error !== undefined ? { 'error.message': tool.error } : {}) };
    spans.push({ start: tool.start, text: JSON.stringify({ trace_id: traceId, span_id: id, parent_span_id: tool.parent, name: `execute_tool ${tool.name}`, start_time: tool.start, end_time: end, duration_ms: millis(tool.start, end), status: tool.error !== undefined ? 'ERROR' : 'OK', attributes }) });
  }
  const lines = spans.map((span, index) => ({ ...span, index })).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.index - b.index)).map((span) => span.text);
  return { lines, failed };
}

export interface ReadCall { readonly id: string; readonly path: string; readonly text: string }

/**
 * The files one model reply read in parallel (its Read calls and their results), and the facts:
 * for each later Edit of one of those files, up to the file's next Read or Write, the longest line
 * of the replaced text (16 characters at least) that occurs exactly once in the file as read.
 */
export function parallelReads(session: string, messageId: string, maxFacts = 8): { reads: ReadCall[]; facts: string[] } {
  const events = sessionEvents(session);
  const results = new Map<string, string>();
  for (const event of events) for (const block of blocks(event)) if (block.type === 'tool_result') results.set(block.tool_use_id ?? '', resultText(block));
  const reads: ReadCall[] = [];
  let last = -1;
  events.forEach((event, index) => {
    if (event.type !== 'assistant' || event.message?.id !== messageId) return;
    for (const block of blocks(event)) {
      if (block.type === 'tool_use' && block.name === 'Read') reads.push({ id: block.id ?? '', path: String(block.input?.file_path ?? ''), text: results.get(block.id ?? '') ?? '' });
    }
    last = index;
  });
  const facts: string[] = [];
  const closed = new Set<string>();
  for (const event of events.slice(last + 1)) {
    if (event.type !== 'assistant') continue;
    for (const block of blocks(event)) {
      const path = String(block.input?.file_path ?? '');
      const read = reads.find((entry) => entry.path === path);
      if (block.type !== 'tool_use' || read === undefined || closed.has(path)) continue;
      if (block.name === 'Read' || block.name === 'Write') closed.add(path);
      if (block.name !== 'Edit') continue;
      const candidates = String(block.input?.old_string ?? '').split('\n').map((text) => text.trim()).filter((text) => text.length >= 16 && read.text.split(text).length === 2);
      const line = candidates.sort((a, b) => b.length - a.length)[0];
      if (line !== undefined && !facts.includes(line)) facts.push(line);
    }
  }
  return { reads, facts: facts.slice(0, maxFacts) };
}

// ---------------------------------------------------------------- MCP tools

/**
 * The GitHub MCP server's tool definitions the own set's 100 KB manifest leaves out: the own set
 * takes them in file-name order until 100,000 pretty-printed characters; these are the rest, cut
 * into two runs of about equal size.
 */
export function mcpToolsLeftOut(): [Record<string, unknown>[], Record<string, unknown>[]] {
  const folder = sharedPath('clients', 'mcp-tools', 'github-mcp-server');
  const all = fs.readdirSync(folder).filter((name) => name.endsWith('.snap')).sort().map((file) => JSON.parse(fs.readFileSync(`${folder}/${file}`, 'utf8')) as Record<string, unknown>);
  let size = 0;
  let index = 0;
  for (; index < all.length && size < 100_000; index++) size += JSON.stringify(all[index], null, 2).length;
  const rest = all.slice(index);
  const total = rest.reduce((sum, tool) => sum + JSON.stringify(tool, null, 2).length, 0);
  let half = 0;
  let cut = 0;
  while (cut < rest.length && half < total / 2) half += JSON.stringify(rest[cut++], null, 2).length;
  return [rest.slice(0, cut), rest.slice(cut)];
}

// ---------------------------------------------------------------- Cranfield passages

export interface Passage { readonly document: CranfieldDocument; readonly score: number; readonly id: string }

/**
 * A retriever's top `count` passages for a Cranfield query, scored by BM25 (k1 1.2, b 0.75) over
 * title and text: the documents judged a complete answer or highly relevant (codes 1–2), and the
 * best-scoring documents not judged for the query at all, in score order.
 */
export function bm25Passages(queryNumber: number, count: number): { passages: Passage[]; answers: Passage[]; query: string } {
  const documents = cranfieldDocuments();
  const judged = judgements().get(queryNumber) ?? new Map<number, number>();
  const query = cranfieldQueries()[queryNumber - 1] ?? '';
  const bags = documents.map((document) => terms(`${document.title} ${document.text}`));
  const average = bags.reduce((sum, bag) => sum + bag.length, 0) / bags.length;
  const frequency = new Map<string, number>();
  for (const bag of bags) for (const term of new Set(bag)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const wanted = [...new Set(terms(query))];
  const score = (bag: readonly string[]): number => wanted.reduce((sum, term) => {
    const tf = bag.filter((word) => word === term).length;
    const idf = Math.log(1 + (documents.length - (frequency.get(term) ?? 0) + 0.5) / ((frequency.get(term) ?? 0) + 0.5));
    return sum + (tf === 0 ? 0 : (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * bag.length) / average)));
  }, 0);
  const all = documents.map((document, index) => ({ document, score: score(bags[index]!), id: `akb-${String(document.id).padStart(4, '0')}.p1` }));
  const answers = all.filter((passage) => (judged.get(passage.document.id) ?? 99) <= 2);
  const others = all.filter((passage) => !judged.has(passage.document.id)).sort((a, b) => b.score - a.score || a.document.id - b.document.id).slice(0, count - answers.length);
  const passages = [...answers, ...others].sort((a, b) => b.score - a.score || a.document.id - b.document.id);
  return { passages, answers, query };
}

// ---------------------------------------------------------------- loghub and trajectories

/**
 * The constant text (8 characters at least, without the punctuation a slot leaves at its ends) of
 * the templates that pass `wanted` among the given lines, most frequent first (ties by first appearance), at most `max`, each found verbatim in
 * the lines as printed.
 */
export function frequentTemplateFacts(lines: readonly LabelledLine[], wanted: (template: string) => boolean, max: number): string[] {
  const counts = new Map<string, { count: number; first: number }>();
  const text = lines.map((line) => line.raw).join('\n');
  lines.forEach((line, index) => {
    const template = line.row.EventTemplate ?? '';
    if (!wanted(template)) return;
    const piece = constantPiece(template).replace(/^[\s)\]},;:]+|[\s([{,;:=]+$/g, '');
    if (piece.length < 8 || !containsFact(text, piece)) return;
    const entry = counts.get(piece) ?? { count: 0, first: index };
    entry.count++;
    counts.set(piece, entry);
  });
  return [...counts].sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first).slice(0, max).map(([piece]) => piece);
}

/** An observation's text as the agent saw it (`<output>`, or head and tail joined), and the command before it. */
export function agentObservation(instance: string, messageIndex: number): { command: string; output: string } {
  const messages = loadTrajectory(instance).messages;
  const bodies = [...messages[messageIndex]!.content.matchAll(/<(output|output_head|output_tail)>\n?([\s\S]*?)\n?<\/\1>/g)].map((match) => match[2]!);
  const command = [...(messages[messageIndex - 1]!.content ?? '').matchAll(/```(?:bash)?\n([\s\S]*?)```/g)].pop()?.[1]?.trim() ?? '';
  return { command, output: bodies.join('\n').replace(/\n+$/, '') };
}

/** The files a trajectory's submission changes. */
export function submittedFiles(instance: string): string[] {
  return [...loadTrajectory(instance).submission.matchAll(/^\+\+\+ b\/(\S+)/gm)].map((match) => match[1]!);
}

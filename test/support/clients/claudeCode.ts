/**
 * Claude Code session transcripts (`~/.claude/projects/*.jsonl`, in `clients/claude-code/`) as
 * the Anthropic Messages requests Claude Code sent, one per assistant reply.
 *
 * The transcript writes one line per event. The content blocks of one reply arrive as
 * separate assistant lines sharing `message.id` (sometimes between the results of its own
 * earlier calls, which Claude Code runs while the reply streams); tool results arrive as user lines holding
 * `tool_result` blocks; consecutive user lines go out as one user message (the API wants the
 * results of parallel calls together). Each reply's request is every message before it since
 * the last compaction (`compact_boundary`: the conversation starts again from the summary,
 * which Claude Code sends as the first user message; the provider's usage confirms it). The
 * first line of each reply carries the provider's real usage for that request.
 *
 * Not in the transcript, so reconstructed (and listed in the session's `reconstructed`): the
 * system prompt (only the environment facts the transcript records: working directory, branch,
 * date, platform), the tools (only those the session called, with an input schema made from the
 * inputs they were called with), the cache breakpoints (where Claude Code puts them: the end
 * of the system prompt and the last block of the last message) and `max_tokens`. The provider's
 * usage shows what the transcript leaves out (Claude Code's instructions, its full tool list and
 * the reminders it adds to the first message): compare against it, not against the tokens here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { sharedPath } from '../sharedData';
import type { ClientRequest, ClientSession, ProviderUsage } from './types';

export const CLAUDE_CODE_FOLDER = sharedPath('clients', 'claude-code');

type Block = Record<string, unknown> & { readonly type: string };

interface TranscriptLine {
  readonly type?: string;
  readonly uuid?: string;
  readonly parentUuid?: string | null;
  readonly logicalParentUuid?: string;
  readonly subtype?: string;
  readonly cwd?: string;
  readonly gitBranch?: string;
  readonly timestamp?: string;
  readonly thinkingMetadata?: { readonly maxThinkingTokens?: number };
  readonly message?: {
    readonly id?: string;
    readonly role?: string;
    readonly model?: string;
    readonly content?: string | readonly Block[];
    readonly usage?: { readonly input_tokens?: number; readonly cache_creation_input_tokens?: number; readonly cache_read_input_tokens?: number; readonly output_tokens?: number };
  };
}

interface WireMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

interface Reply {
  /** Every message before the reply: the request's messages. */
  readonly before: WireMessage[];
  readonly message: WireMessage & { content: Block[] };
  readonly model: string;
  readonly usage?: ProviderUsage;
  /** The request asked for a summary of the conversation (Claude Code's compaction). */
  readonly summarization?: boolean;
}

/**
 * The long sessions (149 and 171 replies) and their subagents' own sessions. Compaction
 * transcripts are not listed: {@link loadClaudeCodeSession} folds each into its main session.
 */
export function claudeCodeLongSessionFiles(): string[] {
  return claudeCodeSpotterMainFiles().flatMap((file) => [file, ...subagentFiles(file).filter((name) => !isCompaction(name))]);
}

function subagentFiles(mainFile: string): string[] {
  const folder = path.join(mainFile.replace(/\.jsonl$/, ''), 'subagents');
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort().map((name) => path.join(folder, name)) : [];
}

function isCompaction(file: string): boolean {
  return path.basename(file).startsWith('agent-acompact-');
}

/** The compaction transcripts of a main session. */
function compactionFiles(mainFile: string): string[] {
  return subagentFiles(mainFile).filter(isCompaction);
}

/** The two long main sessions alone. */
export function claudeCodeSpotterMainFiles(): string[] {
  const folder = path.join(CLAUDE_CODE_FOLDER, 'spotter');
  return fs.readdirSync(folder).filter((name) => /^[0-9a-f-]{36}\.jsonl$/.test(name)).sort().map((name) => path.join(folder, name));
}

/** The shorter sessions: the fixtures from Copilot Chat's tests (and their subagents) and spotter's short samples. */
export function claudeCodeShortSessionFiles(): string[] {
  const fixtures = path.join(CLAUDE_CODE_FOLDER, 'copilot-chat-fixtures');
  const spotter = path.join(CLAUDE_CODE_FOLDER, 'spotter');
  const inFolder = (folder: string): string[] => (fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort().map((name) => path.join(folder, name)) : []);
  return [...inFolder(path.join(fixtures, 'fixtures')), ...inFolder(path.join(fixtures, 'subagents')), ...inFolder(spotter).filter((file) => !/[0-9a-f-]{36}\.jsonl$/.test(file))];
}

/** Reads one transcript file into its lines; a line that is not JSON is an error naming it. */
export function readTranscript(file: string): TranscriptLine[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim().length > 0).map((line, index) => {
    try {
      return JSON.parse(line) as TranscriptLine;
    } catch {
      throw new Error(`Herald: ${file} line ${index + 1} is not JSON; a Claude Code transcript has one JSON event per line`);
    }
  });
}

/**
 * The replies of a transcript, each with the messages its request carried. `compactions` are
 * the transcripts of the compaction requests (Claude Code writes each to a subagent file, its
 * lines' parents in the main transcript, in the order of the boundaries): each becomes a
 * summarization reply whose request is the conversation so far followed by the compaction's
 * own messages (the reminders it carried and the summary instruction).
 */
export function repliesOf(lines: readonly TranscriptLine[], compactions: readonly (readonly TranscriptLine[])[] = []): Reply[] {
  const replies: Reply[] = [];
  let messages: WireMessage[] = [];
  let current: { id: string; message: WireMessage & { content: Block[] } } | undefined;
  const unused = [...compactions];
  for (const line of lines) {
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      // By the parent its lines name, else the next one in order (a transcript need not keep the line it points at).
      const compaction = unused.find((candidate) => candidate.some((entry) => entry.parentUuid === line.logicalParentUuid)) ?? unused[0];
      if (compaction) {
        unused.splice(unused.indexOf(compaction), 1);
        const asked = repliesOf(compaction);
        for (const reply of asked) replies.push({ ...reply, before: joined(messages, reply.before), summarization: true });
      }
      messages = [];
      current = undefined;
      continue;
    }
    const message = line.message;
    if (!message || (line.type !== 'user' && line.type !== 'assistant')) continue;
    if (line.type === 'assistant') {
      // Claude Code's own error notices are written as assistant lines but no model wrote them.
      if (message.model === '<synthetic>' || typeof message.id !== 'string' || !Array.isArray(message.content)) continue;
      // Blocks of one reply may arrive between the results of its earlier calls (Claude Code runs
      // a call as soon as it streams in): they still belong to that one assistant message.
      if (current?.id === message.id) {
        current.message.content.push(...message.content);
        continue;
      }
      const before = copyOf(messages);
      const assistant = { role: 'assistant' as const, content: [...message.content] };
      messages.push(assistant);
      current = { id: message.id, message: assistant };
      replies.push({ before, message: assistant, model: message.model ?? '', ...(message.usage ? { usage: usageOf(message.usage) } : {}) });
      continue;
    }
    const content = message.content ?? '';
    const last = messages.at(-1);
    if (last?.role === 'user') {
      last.content = [...blocks(last.content), ...blocks(content)];
    } else {
      messages.push({ role: 'user', content: typeof content === 'string' ? content : [...content] });
    }
  }
  return replies;
}

function copyOf(messages: readonly WireMessage[]): WireMessage[] {
  return messages.map((entry) => ({ role: entry.role, content: Array.isArray(entry.content) ? [...entry.content] : entry.content }));
}

/** `more` after `messages`, a user message following a user message joined to it (one message on the wire). */
function joined(messages: readonly WireMessage[], more: readonly WireMessage[]): WireMessage[] {
  const out = copyOf(messages);
  for (const message of copyOf(more)) {
    const last = out.at(-1);
    if (last?.role === 'user' && message.role === 'user') last.content = [...blocks(last.content), ...blocks(message.content)];
    else out.push(message);
  }
  return out;
}

function blocks(content: string | readonly Block[]): Block[] {
  return typeof content === 'string' ? (content.length > 0 ? [{ type: 'text', text: content }] : []) : [...content];
}

function usageOf(usage: NonNullable<NonNullable<TranscriptLine['message']>['usage']>): ProviderUsage {
  return { input: usage.input_tokens ?? 0, cacheWrite: usage.cache_creation_input_tokens ?? 0, cacheRead: usage.cache_read_input_tokens ?? 0, output: usage.output_tokens };
}

/** An input schema made from the inputs a tool was called with: every key seen, with its JSON type; required when always present. */
function schemaFromInputs(inputs: readonly Record<string, unknown>[]): object {
  const types = new Map<string, Set<string>>();
  for (const input of inputs) for (const [key, value] of Object.entries(input)) (types.get(key) ?? types.set(key, new Set()).get(key)!).add(jsonType(value));
  const properties = Object.fromEntries([...types].map(([key, seen]) => [key, seen.size === 1 ? { type: [...seen][0] } : { type: [...seen].sort() }]));
  const required = [...types.keys()].filter((key) => inputs.every((input) => key in input));
  return { type: 'object', properties, required };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Claude Code's environment facts as the transcript records them (the rest of its system prompt is not there). */
function systemPromptOf(lines: readonly TranscriptLine[]): string {
  const first = lines.find((line) => typeof line.cwd === 'string');
  const date = first?.timestamp?.slice(0, 10) ?? '';
  return [
    '<env>',
    `Working directory: ${first?.cwd ?? ''}`,
    `Is directory a git repo: ${first?.gitBranch ? 'Yes' : 'No'}`,
    'Platform: linux',
    `Today's date: ${date}`,
    '</env>',
    ...(first?.gitBranch ? [`gitStatus: Current branch: ${first.gitBranch}`] : []),
  ].join('\n');
}

/** A copy of the messages with Claude Code's sliding breakpoint on the last block that can carry one. */
function withTailBreakpoint(messages: readonly WireMessage[]): WireMessage[] {
  const out = messages.map((message) => ({ ...message }));
  const last = out.at(-1);
  if (!last) return out;
  const content = blocks(last.content);
  for (let index = content.length - 1; index >= 0; index--) {
    const block = content[index]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking' || (block.type === 'text' && block.text === '')) continue;
    content[index] = { ...block, cache_control: { type: 'ephemeral' } };
    last.content = content;
    break;
  }
  return out;
}

/** One transcript as the Anthropic requests Claude Code sent, one per reply. */
export function loadClaudeCodeSession(file: string): ClientSession {
  const lines = readTranscript(file);
  const replies = repliesOf(lines, compactionFiles(file).map(readTranscript));
  const inputs = new Map<string, Record<string, unknown>[]>();
  for (const reply of replies) {
    for (const block of reply.message.content) {
      if (block.type === 'tool_use' && typeof block.name === 'string') (inputs.get(block.name) ?? inputs.set(block.name, []).get(block.name)!).push((block.input ?? {}) as Record<string, unknown>);
    }
  }
  const tools = [...inputs].map(([name, calls]) => ({ name, input_schema: schemaFromInputs(calls) }));
  const system = [{ type: 'text', text: systemPromptOf(lines), cache_control: { type: 'ephemeral' } }];
  const budget = lines.find((line) => line.thinkingMetadata?.maxThinkingTokens)?.thinkingMetadata?.maxThinkingTokens;
  const requests: ClientRequest[] = replies.map((reply) => {
    const body = {
      model: reply.model,
      max_tokens: 32_000,
      system,
      ...(tools.length > 0 ? { tools } : {}),
      messages: withTailBreakpoint(reply.before),
      ...(budget ? { thinking: { type: 'enabled', budget_tokens: Math.min(budget, 31_999) } } : {}),
      stream: true,
    };
    const request = parseRequest(body, 'anthropic');
    const calledTools = reply.message.content.filter((block) => block.type === 'tool_use').map((block) => String(block.name));
    const replyMessage: ChatMessage = parseRequest({ messages: [reply.message] }, 'anthropic').messages[0]!;
    return { request, calledTools, reply: replyMessage, ...(reply.summarization ? { summarization: true } : {}), ...(reply.usage ? { usage: reply.usage } : {}) };
  });
  return {
    client: 'claude-code',
    name: path.relative(CLAUDE_CODE_FOLDER, file),
    requests,
    roundTrip: anthropicRoundTrip,
    reconstructed: [
      'system prompt: only the environment facts the transcript records (working directory, branch, date, platform)',
      `tools: only the ${tools.length} the session called, input schemas made from their calls' inputs, no descriptions`,
      'cache breakpoints: the end of the system prompt and the last block of the last message, where Claude Code puts them',
      'max_tokens 32000, thinking budget from the transcript\'s maxThinkingTokens',
    ],
  };
}

/** What an Anthropic endpoint receives: the request written to the wire and read back. */
export function anthropicRoundTrip(request: ChatRequest): ChatRequest {
  return parseRequest(JSON.parse(JSON.stringify(serializeRequest(request))) as unknown, 'anthropic');
}

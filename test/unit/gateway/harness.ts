/** A `herald serve` on a free loopback port in front of a fake upstream, with its output and folder kept for inspection. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIo } from '../../../src/cli/io';
import { startServe, type RunningServe } from '../../../src/cli/serveCommand';
import { FakeUpstream, type Script } from './fakeUpstream';

export interface Harness {
  readonly upstream: FakeUpstream;
  readonly serve: RunningServe;
  /** `http://127.0.0.1:<port>`: the Anthropic base URL; OpenAI clients add `/v1`. */
  readonly base: string;
  readonly folder: string;
  readonly decisionsFile: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startHarness(script: Script | readonly Script[], args: readonly string[] = []): Promise<Harness> {
  const upstream = new FakeUpstream(script);
  const url = await upstream.start();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-gateway-'));
  const decisionsFile = path.join(folder, 'decisions.jsonl');
  let output = '';
  const io: CliIo = { readStdin: async () => '', stdout: (text) => { output += text; }, stderr: (text) => { output += text; } };
  // The transport tests run the pipeline in the gateway's process (workers from source start in
  // seconds each); the pool has its own tests (optimizerPool.test.ts, teamGateway.test.ts).
  const workers = args.includes('--workers') ? [] : ['--workers', '0'];
  // The transport tests need markers in short sessions: they price every marker alike unless they
  // say otherwise (the first-marker pricing, on by default, has its own tests: firstMarkerRound.test.ts).
  const pricing = args.some((arg) => arg.endsWith('first-marker-round')) ? [] : ['--no-first-marker-round'];
  let serve: RunningServe;
  try {
    serve = await startServe(['--port', '0', '--openai-base-url', `${url}/v1`, '--anthropic-base-url', url, '--stash', path.join(folder, 'stash'), '--decisions', decisionsFile, ...workers, ...pricing, ...args], io);
  } catch (error) {
    await upstream.close();
    fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    upstream,
    serve,
    base: `http://127.0.0.1:${serve.port}`,
    folder,
    decisionsFile,
    output: () => output,
    async stop() {
      await serve.stop();
      await upstream.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The gateway's records of its requests, newest last (they are kept before the next request can arrive). */
export function records(harness: Harness): Record<string, unknown>[] {
  return harness.serve.gateway.recent() as unknown as Record<string, unknown>[];
}

/** The decisions file's lines (written in the background: read it after the gateway stopped, or after a pause). */
export function decisionsFileLines(harness: Harness): Record<string, unknown>[] {
  if (!fs.existsSync(harness.decisionsFile)) return [];
  return fs.readFileSync(harness.decisionsFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Every file under a folder, as text (binary files too: a secret must not be in any of them). */
export function allFileText(folder: string): string {
  const texts: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else texts.push(fs.readFileSync(full).toString('latin1'));
    }
  };
  walk(folder);
  return texts.join('\n');
}

/** The raw text of a streamed answer, read with fetch (no SDK in between). */
export async function rawStream(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A conversation whose old 300-line tool output the default pipeline masks behind a marker (so herald_retrieve is offered). */
export const BIG_OUTPUT = Array.from({ length: 300 }, (_, index) => `2026-01-01T10:00:${String(index % 60).padStart(2, '0')}Z INFO worker-${index % 7} processed batch ${1000 + index} in ${index * 3} ms checksum ${((index * 2654435761) % 4294967296).toString(16)}`).join('\n');

export function anthropicConversation(): Record<string, unknown> {
  const turn = (n: number) => [
    { role: 'assistant', content: [{ type: 'text', text: `Step ${n}.` }, { type: 'tool_use', id: `s${n}`, name: 'Bash', input: { command: `ls dir${n}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `s${n}`, content: `file${n}.txt` }] },
  ];
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: 'You are a coding agent.',
    tools: [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    messages: [
      { role: 'user', content: 'Find why the worker is slow.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat worker.log' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: BIG_OUTPUT }] },
      ...turn(1), ...turn(2), ...turn(3), ...turn(4),
    ],
  };
}

/** The handle of the first marker in a request body. */
export function handleIn(body: unknown): string {
  const match = /retrieve (hr_[a-z2-7]{16})/.exec(JSON.stringify(body));
  if (!match) throw new Error('no marker in the request');
  return match[1]!;
}

/** The same conversation in Chat Completions shape. */
export function chatConversation(): Record<string, unknown> {
  const call = (id: string, command: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] });
  const turns = [1, 2, 3, 4].flatMap((n) => [call(`s${n}`, `ls dir${n}`), { role: 'tool', tool_call_id: `s${n}`, content: `file${n}.txt` }]);
  return {
    model: 'gpt-4o',
    messages: [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Find why the worker is slow.' }, call('t1', 'cat worker.log'), { role: 'tool', tool_call_id: 't1', content: BIG_OUTPUT }, ...turns],
    tools: [{ type: 'function', function: { name: 'bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }],
  };
}

/** The same conversation as a stateless Responses request (Codex's shape). */
export function responsesConversation(): Record<string, unknown> {
  const call = (id: string, command: string) => ({ type: 'function_call', call_id: id, name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) });
  const turns = [1, 2, 3, 4].flatMap((n) => [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Step ${n}.` }] }, call(`s${n}`, `ls dir${n}`), { type: 'function_call_output', call_id: `s${n}`, output: `file${n}.txt` }]);
  return {
    model: 'gpt-5-codex',
    instructions: 'You are a coding agent.',
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Find why the worker is slow.' }] }, call('t1', 'cat worker.log'), { type: 'function_call_output', call_id: 't1', output: BIG_OUTPUT }, ...turns],
    tools: [{ type: 'function', name: 'shell', description: 'Runs a command', strict: false, parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } }],
    store: false,
    include: ['reasoning.encrypted_content'],
  };
}

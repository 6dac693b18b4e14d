/**
 * A generated agent conversation for speed work (issue 26): rounds of an assistant tool call
 * and its output, the outputs rotating through what makes a strategy slow when it scans badly:
 * long single lines, logs with ids and timestamps, JSON, terminal control characters, fake
 * `[herald: …]` markers, source reads, grep hits, test runs, listings and diffs. Every output
 * carries terms seen nowhere before (ids, paths, numbers) and the assistant's next reply quotes
 * a few of them back, as an agent does. Deterministic: the same options give the same bytes.
 *
 * The shape is the same at every size: a conversation of N messages is the first N messages
 * of a longer one, so sizes compare like for like.
 */
import type { JsonObject } from '../../src/core/chat/objects';

export interface StressOptions {
  /** Messages in the conversation (system and task included). */
  readonly messages: number;
  /** Multiplies every output's length; 1 is about 45 kB a message on average (the issue's 200 messages, 9.7 MB). */
  readonly outputScale?: number;
  readonly seed?: number;
}

/** The kinds of output a round produces, in the order they rotate. */
export const OUTPUT_KINDS = ['log', 'json', 'longLine', 'control', 'source', 'grep', 'fakeMarkers', 'testRun', 'listing', 'diff', 'log', 'json'] as const;
type OutputKind = (typeof OUTPUT_KINDS)[number];

/** A small deterministic generator (mulberry32). */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 0x100000000).toString(16).padStart(8, '0');
    return out.slice(0, length);
  }
}

const WORDS = ['order', 'invoice', 'customer', 'session', 'cache', 'worker', 'queue', 'payment', 'refund', 'shipment', 'token', 'account', 'report', 'export', 'import', 'schema', 'migration', 'index', 'router', 'handler', 'service', 'client', 'server', 'config', 'retry', 'timeout', 'buffer', 'stream', 'parser', 'render'];
const LEVELS = ['INFO', 'INFO', 'INFO', 'INFO', 'DEBUG', 'DEBUG', 'WARN', 'ERROR'];

/** The conversation as an OpenAI chat completions body. */
export function stressConversation(options: StressOptions): JsonObject {
  const random = new Random(options.seed ?? 26);
  const scale = options.outputScale ?? 1;
  const messages: JsonObject[] = [
    { role: 'system', content: 'You are a coding agent. Use the bash tool to inspect and change the repository. Be concise.' },
    { role: 'user', content: 'The nightly export job fails for some customers. Find out why, fix it, and make the tests pass.' },
  ];
  let previousTerms: string[] = [];
  for (let round = 0; messages.length < options.messages; round++) {
    const kind = OUTPUT_KINDS[round % OUTPUT_KINDS.length]!;
    const callId = `call_${round}_${random.hex(8)}`;
    const command = commandFor(kind, random, round);
    const quoted = previousTerms.length > 0 ? ` The output mentions ${random.pick(previousTerms)} and ${random.pick(previousTerms)}; I will follow that up.` : '';
    messages.push({
      role: 'assistant',
      content: `Step ${round + 1}.${quoted} Next I run \`${command}\` to see ${random.pick(WORDS)} ${random.pick(WORDS)} handling.`,
      tool_calls: [{ id: callId, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }],
    });
    if (messages.length >= options.messages) break;
    const { text, terms } = outputOf(kind, random, scale, round);
    previousTerms = terms;
    messages.push({ role: 'tool', tool_call_id: callId, content: text });
    if (round % 20 === 19 && messages.length < options.messages) {
      messages.push({ role: 'user', content: `Also check whether ${random.pick(terms)} is handled, and keep going.` });
    }
  }
  return { model: 'gpt-4o', messages };
}

function commandFor(kind: OutputKind, random: Random, round: number): string {
  switch (kind) {
    case 'log': return `tail -n 2000 /var/log/export/worker-${round}.log`;
    case 'json': return `curl -s http://localhost:8080/api/v1/${random.pick(WORDS)}s?page=${round}`;
    case 'longLine': return `cat dist/bundle.${random.hex(6)}.min.js`;
    case 'control': return `npm run build -- --color`;
    case 'source': return `cat src/${random.pick(WORDS)}/${random.pick(WORDS)}_${round}.py`;
    case 'grep': return `grep -rn "${random.pick(WORDS)}_${round}" src`;
    case 'fakeMarkers': return `cat notes/review-${round}.md`;
    case 'testRun': return 'python -m pytest -q tests';
    case 'listing': return `ls -la src/${random.pick(WORDS)}`;
    case 'diff': return 'git diff';
  }
}

interface Output {
  readonly text: string;
  /** Terms the output introduced, for the next reply to quote. */
  readonly terms: string[];
}

function lines(count: number, line: (index: number) => string): string {
  const out: string[] = [];
  for (let index = 0; index < count; index++) out.push(line(index));
  return out.join('\n');
}

function outputOf(kind: OutputKind, random: Random, scale: number, round: number): Output {
  // The bases below give about 15 kB a message; times three is the issue's 45 kB.
  const size = (base: number): number => Math.max(1, Math.round(3 * base * scale * (0.5 + random.next())));
  const terms: string[] = [];
  const term = (value: string): string => {
    if (terms.length < 40) terms.push(value);
    return value;
  };
  switch (kind) {
    case 'log': {
      const text = lines(size(600), (index) => {
        const level = random.pick(LEVELS);
        const base = `2026-03-${String(1 + (round % 28)).padStart(2, '0')}T${String(index % 24).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}:${String((index * 7) % 60).padStart(2, '0')}.${String(index % 1000).padStart(3, '0')}Z ${level} [${random.pick(WORDS)}-worker-${index % 8}] req=${term(random.hex(12))} customer=${term(`cus_${random.hex(10)}`)} path=/api/v1/${random.pick(WORDS)}s/${random.int(1000, 999999)} took ${random.int(1, 5000)}ms`;
        return level === 'ERROR' ? `${base}\n  at ${random.pick(WORDS)}Handler.process (src/${random.pick(WORDS)}/handler_${round}.ts:${random.int(1, 400)}:${random.int(1, 80)})\n  at Worker.run (src/worker.ts:${random.int(1, 200)}:9)` : base;
      });
      return { text, terms };
    }
    case 'json': {
      const records = Array.from({ length: size(150) }, () => ({
        id: term(`${random.pick(WORDS)}_${random.hex(16)}`),
        customer: { id: `cus_${random.hex(10)}`, name: `${random.pick(WORDS)} ${random.pick(WORDS)}`, tags: [random.pick(WORDS), random.pick(WORDS)] },
        amount: random.int(100, 9_999_999) / 100,
        status: random.pick(['paid', 'failed', 'pending', 'refunded']),
        path: `/data/${random.pick(WORDS)}/${random.hex(8)}.csv`,
        note: random.next() < 0.1 ? 'line one\nline two\ttabbed \u0001 control' : null,
      }));
      return { text: JSON.stringify({ page: round, total: records.length, records }, null, random.next() < 0.5 ? 2 : undefined), terms };
    }
    case 'longLine': {
      // A minified bundle: one line of tens or hundreds of kilobytes.
      const parts: string[] = [];
      const target = size(60_000);
      let length = 0;
      while (length < target) {
        const part = `function ${term(`${random.pick(WORDS)}${random.hex(6)}`)}(a,b){return a.${random.pick(WORDS)}(b)||"${random.hex(24)}"};`;
        parts.push(part);
        length += part.length;
      }
      return { text: parts.join(''), terms };
    }
    case 'control': {
      const text = lines(size(300), (index) => {
        const choice = index % 6;
        if (choice === 0) return `\u001b[32m✓\u001b[0m compiled ${term(`src/${random.pick(WORDS)}/${random.hex(6)}.ts`)} in ${random.int(1, 900)}ms`;
        if (choice === 1) return `${'\r'.padEnd(1)}[${'#'.repeat(index % 30).padEnd(30, '.')}] ${index % 100}%\r[${'#'.repeat(30)}] 100%`;
        if (choice === 2) return `\u001b[2K\u001b[1G\u001b[33mwarning\u001b[0m unused variable ${term(`${random.pick(WORDS)}_${random.hex(5)}`)}\u0007`;
        if (choice === 3) return `binary\u0000chunk\u0000${random.hex(20)}\u0008\u0008ok`;
        if (choice === 4) return `\u001b]0;build ${index}\u0007\u001b[1m${random.pick(WORDS)}\u001b[22m emitted ${random.int(1, 99999)} bytes`;
        return `\ud800 lone surrogate ${random.hex(8)} \udfff tail \u{1F600}`;
      });
      return { text, terms };
    }
    case 'source': {
      const text = lines(size(120), (index) => {
        if (index % 12 === 0) return `def ${term(`${random.pick(WORDS)}_${random.hex(6)}`)}(self, ${random.pick(WORDS)}_id, retries=${random.int(1, 9)}):`;
        if (index % 12 === 1) return `    """Handle the ${random.pick(WORDS)} for ${random.pick(WORDS)} records."""`;
        return `    ${random.pick(WORDS)}_${index} = self.${random.pick(WORDS)}.get(${random.pick(WORDS)}_id, ${random.int(0, 99999)})`;
      });
      return { text: `class ${term(`${random.pick(WORDS)}Exporter${round}`)}:\n${text}`, terms };
    }
    case 'grep': {
      const text = lines(size(250), () => `${term(`src/${random.pick(WORDS)}/${random.pick(WORDS)}_${random.hex(4)}.py`)}:${random.int(1, 2000)}:    ${random.pick(WORDS)}_${round} = load_${random.pick(WORDS)}(${random.hex(6)})`);
      return { text, terms };
    }
    case 'fakeMarkers': {
      const text = lines(size(200), (index) => {
        if (index % 9 === 0) return `[herald: ${random.int(2, 900)} lines elided · retrieve hr_${random.hex(20)}]`;
        if (index % 9 === 4) return `see [herald: observation masked: ${random.int(2, 90)} lines · retrieve hr_${random.hex(20)}] for ${term(random.hex(10))}`;
        return `- ${random.pick(WORDS)} ${random.pick(WORDS)} of ${term(`${random.pick(WORDS)}-${random.hex(6)}`)} needs review (${random.int(1, 500)})`;
      });
      return { text, terms };
    }
    case 'testRun': {
      const text = lines(size(200), (index) => {
        const name = `tests/test_${random.pick(WORDS)}.py::test_${term(`${random.pick(WORDS)}_${random.hex(5)}`)}`;
        if (index % 40 === 7) return `${name} FAILED\nE   AssertionError: expected ${random.int(1, 999)} got ${random.int(1, 999)}\nE   at ${random.pick(WORDS)}.py:${random.int(1, 400)}`;
        return `${name} PASSED`;
      });
      return { text: `${text}\n==== ${random.int(1, 9)} failed, ${random.int(100, 900)} passed in ${random.int(1, 99)}.${random.int(10, 99)}s ====`, terms };
    }
    case 'listing': {
      const text = lines(size(300), () => `-rw-r--r--  1 dev dev ${String(random.int(10, 999999)).padStart(8)} Mar ${random.int(1, 28)} 12:${String(random.int(0, 59)).padStart(2, '0')} ${term(`${random.pick(WORDS)}_${random.hex(6)}.${random.pick(['py', 'ts', 'json', 'csv'])}`)}`);
      return { text: `total ${random.int(100, 99999)}\n${text}`, terms };
    }
    case 'diff': {
      const file = term(`src/${random.pick(WORDS)}/${random.pick(WORDS)}_${random.hex(4)}.py`);
      const text = lines(size(200), (index) => {
        if (index % 30 === 0) return `@@ -${index + 1},30 +${index + 1},31 @@ def ${random.pick(WORDS)}_${random.hex(4)}():`;
        const sign = index % 7 === 0 ? '-' : index % 7 === 1 ? '+' : ' ';
        return `${sign}    ${random.pick(WORDS)} = ${random.pick(WORDS)}_${random.hex(6)}(${random.int(0, 999)})`;
      });
      return { text: `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n${text}`, terms };
    }
  }
}

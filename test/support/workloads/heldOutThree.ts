/**
 * The third held-out set of issue 29 ("held-out-3"): 16 one-request workloads written as 8 pairs.
 * The two workloads of a pair are of one kind (same category, same kind of bulk, same layout) and
 * of similar size, so that the tune half and the measure half have the same make-up: which of a
 * pair is tuned on is fixed by {@link heldOutThreeHalf} (FNV-1a of the pair id) before anything
 * was measured. Built from pieces of ../shared/data no other set uses (loghub Mac lines 701–1000,
 * two JUnit reports, other trajectories, Claude Code sessions, the MCP tools the own manifest
 * leaves out, other Cranfield queries) and written without looking at what Herald makes of them.
 * Facts come from each piece's ground truth: loghub templates, expected/*.md summaries, the
 * runner's own verdict, submissions, qrels, the sessions' is_error flags and later edits, the tool
 * definitions themselves.
 */
import { fnv1a, type HeldOutHalf } from './heldOutSplit';
import { unittestVerdict } from './heldOutData';
import { labelledLines } from './heldOutTwoLogs';
import {
  agentObservation, ANNOTATIONS_SESSION, bm25Passages, frequentTemplateFacts, mcpToolsLeftOut, parallelReads, sessionSpans, submittedFiles, TRANSCRIPT_SESSION,
} from './heldOutThreeSources';
import { AGENT_SYSTEM, CHAT_SYSTEM, freshToolResult, MODEL, readShared } from './shape';
import { expectedFailures } from './testRuns';
import type { Workload } from './types';

export interface HeldOutThreePair {
  /** What the rule hashes: FNV-1a of it even → the first workload is tuned on, odd → the second. */
  readonly id: string;
  /** The kind both workloads share. */
  readonly kind: string;
  readonly workloads: readonly [string, string];
}

/** The pairs, fixed before anything was measured. */
export const HELD_OUT_THREE_PAIRS: readonly HeldOutThreePair[] = [
  { id: 'h3-pair-syslog', kind: 'a raw macOS syslog pasted under a question', workloads: ['h3-mac-syslog-overnight', 'h3-mac-syslog-daytime'] },
  { id: 'h3-pair-junit-xml', kind: 'a small JUnit XML report pasted under a question', workloads: ['h3-junit-registration-xml', 'h3-phpunit-events-xml'] },
  { id: 'h3-pair-django-runner', kind: 'a Django test-runner console output returned by a command', workloads: ['h3-django-migrations-run', 'h3-django-i18n-run'] },
  { id: 'h3-pair-agent-spans', kind: 'an agent session\'s spans (JSON lines) pasted under a question', workloads: ['h3-spans-annotations-session', 'h3-spans-transcript-session'] },
  { id: 'h3-pair-kb-passages', kind: '40 retrieved passages with id, source and BM25 score, question after', workloads: ['h3-kb-passages-13', 'h3-kb-passages-41'] },
  { id: 'h3-pair-grep', kind: 'a short `grep -r` output returned by a command', workloads: ['h3-grep-sqlite-version', 'h3-grep-foo-display'] },
  { id: 'h3-pair-files-read', kind: 'several whole files read in one agent turn (parallel Read results)', workloads: ['h3-reads-annotation-refs', 'h3-reads-shared-transcript'] },
  { id: 'h3-pair-mcp-tools', kind: 'an MCP tools/list response pasted under a question', workloads: ['h3-mcp-tools-merge', 'h3-mcp-tools-close-duplicate'] },
];

/** Which half a held-out-3 workload is in: within its pair, fnv1a(pair id) even → the first is tune, odd → the second. */
export function heldOutThreeHalf(id: string): HeldOutHalf {
  const pair = HELD_OUT_THREE_PAIRS.find((entry) => entry.workloads.includes(id));
  if (pair === undefined) throw new Error(`${id} is not a held-out-3 workload`);
  const firstIsTune = fnv1a(pair.id) % 2 === 0;
  return (pair.workloads[0] === id) === firstIsTune ? 'tune' : 'measure';
}

function userMessage(content: string, system = CHAT_SYSTEM): Workload['body'] {
  return { model: MODEL, messages: [{ role: 'system', content: system }, { role: 'user', content }] };
}

// ---------------------------------------------------------------- logs: macOS syslog

const MAC_TROUBLE = (template: string): boolean => /fail|error|err=|deny|denied|not permitted|no network route/i.test(template);

/** Mac_2k.log lines first…last (1-based) pasted raw; facts: the 8 commonest failure/error/denial templates there (structured CSV). */
function macSyslog(id: string, first: number, last: number, question: string): Workload {
  const lines = labelledLines('Mac').slice(first - 1, last);
  return {
    id,
    category: 'logs and data',
    pattern: `${lines.length} raw macOS syslog lines under a question`,
    question,
    body: userMessage(`${question}\n\n${lines.map((line) => line.raw).join('\n')}`),
    facts: frequentTemplateFacts(lines, MAC_TROUBLE, 8),
    source: `loghub Mac_2k.log lines ${first}–${last} as printed; facts: the constant text of the (at most 8) commonest templates there reporting a failure, an error or a denial (structured CSV)`,
  };
}

// ---------------------------------------------------------------- test runs

/** A JUnit XML report pasted under a question; facts: the failures its expected/*.md summary lists. */
function pastedJunit(id: string, file: string, expected: string, question: string): Workload {
  const xml = readShared('test-reports', ...file.split('/')).replace(/\n$/, '');
  return {
    id,
    category: 'logs and data',
    pattern: 'a small JUnit XML report pasted under a question',
    question,
    body: userMessage(`${question}\n\n${xml}`),
    facts: expectedFailures(expected, xml),
    source: `test-reports/${file} pasted under the question; facts: every failing test and its message's first line from expected/${expected}`,
  };
}

/** An agent's command output as the fresh result of its command, with facts read from the output and what they are. */
function observationWorkload(id: string, instance: string, messageIndex: number, question: string, kind: Pick<Workload, 'category' | 'pattern'> & { facts: (output: string) => string[]; factsAre: string }): Workload {
  const { command, output } = agentObservation(instance, messageIndex);
  return {
    id,
    category: kind.category,
    pattern: kind.pattern,
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: kind.facts(output),
    source: `\`${command}\` in ${instance} (trajectory message ${messageIndex}) as a fresh tool result; facts: ${kind.factsAre}`,
  };
}

/** An agent's Django test run as the fresh result of its command; facts: the runner's own verdict (failing tests, exception lines). */
function djangoRun(id: string, instance: string, messageIndex: number, question: string): Workload {
  return observationWorkload(id, instance, messageIndex, question, {
    category: 'logs and data',
    pattern: 'a Django test-runner console output returned by a command',
    facts: unittestVerdict,
    factsAre: 'each failing test and its exception line (unittest verdict)',
  });
}

// ---------------------------------------------------------------- traces

/** A Claude Code session as spans; facts: the span ids of the tool calls the session recorded as failed (is_error). */
function sessionTrace(id: string, session: string, question: string): Workload {
  const { lines, failed } = sessionSpans(session);
  return {
    id,
    category: 'logs and data',
    pattern: `${lines.length} spans of one agent session (JSON lines) under a question`,
    question,
    body: userMessage(`${question}\n\n${lines.join('\n')}`),
    facts: failed.slice(0, 8),
    source: `clients/claude-code/spotter/${session}.jsonl as OpenTelemetry-style spans (a chat span per reply with its recorded usage, an execute_tool span per call, recorded timestamps and ids); facts: the span id of every tool call whose result the session recorded with is_error`,
  };
}

// ---------------------------------------------------------------- retrieval

/** Cranfield query as a question under its top-40 BM25 passages; facts: each judged answer's passage id and title (cranqrel codes 1–2). */
function kbPassages(queryNumber: number): Workload {
  const { passages, answers, query } = bm25Passages(queryNumber, 40);
  const documents = passages.map((passage, index) => `<document index="${index + 1}" id="${passage.id}" source="kb/aerodynamics/cranfield-${passage.document.id}.txt" score="${passage.score.toFixed(3)}">\n${passage.document.title}\n\n${passage.document.text}\n</document>`);
  const question = `${query.replace(/\s+\.$/, '?')} Answer from the documents above and cite the ids you use.`;
  return {
    id: `h3-kb-passages-${queryNumber}`,
    category: 'RAG and tool-heavy',
    pattern: '40 retrieved passages with id, source and BM25 score, question after',
    question,
    body: userMessage(`<documents>\n${documents.join('\n')}\n</documents>\n\n${question}`, 'Answer the user\'s question from the documents in their message and cite the document ids you rely on.'),
    facts: answers.flatMap((answer) => [answer.id, answer.document.title]).slice(0, 8),
    source: `Cranfield query ${queryNumber}: its judged answers (codes 1–2) and the best BM25 matches among documents not judged for it, 40 in all, in BM25 order; facts: each answer's passage id and title (cranqrel)`,
  };
}

// ---------------------------------------------------------------- code search and files

/** An agent's grep as a fresh tool result; facts: every hit in a file the submission changes. */
function grepRun(id: string, instance: string, messageIndex: number, question: string): Workload {
  const files = submittedFiles(instance);
  return observationWorkload(id, instance, messageIndex, question, {
    category: 'code search, diffs, multi-file',
    pattern: 'a short `grep -r` output returned by a command',
    facts: (output) => [...new Set(output.split('\n').filter((line) => files.some((file) => line.startsWith(`${file}:`))).map((line) => line.trimEnd()))].slice(0, 8),
    factsAre: 'every hit in a file the submission changes',
  });
}

const READ_TOOL = {
  type: 'function',
  function: { name: 'Read', description: 'Read a file from the local filesystem; lines are numbered.', parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
};

/** Files one Claude Code reply read in parallel, as the turn the model answers next; facts: the lines the agent's later edits replaced. */
function filesRead(id: string, session: string, messageId: string, question: string): Workload {
  const { reads, facts } = parallelReads(session, messageId);
  return {
    id,
    category: 'code search, diffs, multi-file',
    pattern: `${reads.length} whole files read in one agent turn (parallel Read results)`,
    question,
    body: {
      model: MODEL,
      messages: [
        { role: 'system', content: AGENT_SYSTEM },
        { role: 'user', content: question },
        { role: 'assistant', content: null, tool_calls: reads.map((read) => ({ id: read.id, type: 'function', function: { name: 'Read', arguments: JSON.stringify({ file_path: read.path }) } })) },
        ...reads.map((read) => ({ role: 'tool', tool_call_id: read.id, content: read.text })),
      ],
      tools: [READ_TOOL],
    },
    facts,
    source: `clients/claude-code/spotter/${session}.jsonl, reply ${messageId}: its ${reads.length} Read calls and their recorded results; facts: for each later Edit of one of those files (until it is read or written again), the longest line of the replaced text that occurs once in the file as read`,
  };
}

// ---------------------------------------------------------------- MCP tool lists

/** Half of the MCP tools the own manifest leaves out, as a tools/list response; facts: the answering tool's name and the arguments and values its definition gives for the case. */
function mcpTools(id: string, half: 0 | 1, toolName: string, argument: string, value: string, extra: string[], question: string): Workload {
  const tools = mcpToolsLeftOut()[half];
  const tool = tools.find((entry) => entry.name === toolName);
  const property = (tool?.inputSchema as { properties?: Record<string, { enum?: string[] }> } | undefined)?.properties?.[argument];
  if (tool === undefined || property?.enum?.includes(value) !== true) throw new Error(`${toolName}.${argument} has no value ${value}`);
  const response = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools } }, null, 2);
  return {
    id,
    category: 'RAG and tool-heavy',
    pattern: `an MCP tools/list response (${tools.length} tools) pasted under a question`,
    question,
    body: userMessage(`${question}\n\n${response}`),
    facts: [toolName, argument, value, ...extra],
    source: `the ${half === 0 ? 'first' : 'second'} half of the github-mcp-server tool definitions the own set's 100 KB manifest leaves out (clients/mcp-tools, file-name order) as a tools/list result; facts: the tool's name, the argument and enum value its schema gives for the case${extra.length > 0 ? ', and the related argument' : ''}`,
  };
}

// ---------------------------------------------------------------- the set

const BUILDERS: Readonly<Record<string, () => Workload>> = {
  'h3-mac-syslog-overnight': () => macSyslog('h3-mac-syslog-overnight', 701, 850, 'My MacBook was supposed to sleep overnight but the log below kept going. Which processes logged errors, failures or denials, and what did they say?'),
  'h3-mac-syslog-daytime': () => macSyslog('h3-mac-syslog-daytime', 851, 1000, 'Things kept failing on my Mac today (contacts, iCloud, thumbnails). Which processes logged errors, failures or denials in this syslog, and what exactly?'),
  'h3-junit-registration-xml': () => pastedJunit('h3-junit-registration-xml', 'external/java/junit4-complete.xml', 'junit-complete.md', 'The registration tests went red in CI; this is the JUnit XML it produced. Which tests failed, and with what message?'),
  'h3-phpunit-events-xml': () => pastedJunit('h3-phpunit-events-xml', 'phpunit/phpunit.xml', 'phpunit-test-results.md', 'PHPUnit\'s own test run failed on my branch; here is its JUnit log. Which tests failed, and with what error?'),
  'h3-django-migrations-run': () => djangoRun('h3-django-migrations-run', 'django__django-13112', 129, 'makemigrations crashes for a ForeignKey when the app label is mixed-case, so I changed how the lazy reference is built. Run the migrations tests and tell me which fail and why.'),
  'h3-django-i18n-run': () => djangoRun('h3-django-i18n-run', 'django__django-15098', 45, 'i18n_patterns returns 404 for a language code with script and region like en-latn-us, so I touched the language-prefix regex. Run the i18n tests and tell me which fail and why.'),
  'h3-spans-annotations-session': () => sessionTrace('h3-spans-annotations-session', ANNOTATIONS_SESSION, 'Our coding agent spent an hour on the annotation message-refs task and I want to know where it stumbled. These are the spans of that session from our tracing backend, one JSON object a line. Which tool calls failed, and with what error?'),
  'h3-spans-transcript-session': () => sessionTrace('h3-spans-transcript-session', TRANSCRIPT_SESSION, 'The agent run for the unified transcript view took five hours. Below are its spans exported from the tracing backend (JSON lines). Which tool calls failed, and why?'),
  'h3-kb-passages-13': () => kbPassages(13),
  'h3-kb-passages-41': () => kbPassages(41),
  'h3-grep-sqlite-version': () => grepRun('h3-grep-sqlite-version', 'django__django-13821', 5, 'We are dropping support for SQLite older than 3.9.0. Where does Django check the SQLite version at startup?'),
  'h3-grep-foo-display': () => grepRun('h3-grep-foo-display', 'django__django-11999', 45, 'Overriding get_FOO_display() on a model stopped working in Django 2.2. Which existing tests exercise get_FOO_display()?'),
  'h3-reads-annotation-refs': () => filesRead('h3-reads-annotation-refs', ANNOTATIONS_SESSION, 'msg_01GGLGCJ9sN12iKQZvVorFAw', 'Annotations should record whether they came from the terminal or from the transcript, and link to one or more transcript messages. Read the annotation and message resources, the domain, the transcript renderer, the session LiveView, app.js and their tests, and tell me what has to change where.'),
  'h3-reads-shared-transcript': () => filesRead('h3-reads-shared-transcript', TRANSCRIPT_SESSION, 'msg_01Aci2WjhVxhEoZK5GJvwVrD', 'SessionLive and SubagentLive duplicate the transcript markup and the row-class logic. Read both LiveViews and PaneListLive (it already uses AshComputer) and tell me what has to move into one shared transcript component.'),
  'h3-mcp-tools-merge': () => mcpTools('h3-mcp-tools-merge', 0, 'merge_pull_request', 'merge_method', 'squash', [], 'This is what our GitHub MCP server answers to tools/list. I want the agent to squash-merge pull request 412: which tool does it call, and which argument selects the squash?'),
  'h3-mcp-tools-close-duplicate': () => mcpTools('h3-mcp-tools-close-duplicate', 1, 'update_issue_state', 'state_reason', 'duplicate', ['duplicate_of'], 'Here is the tools/list response of our GitHub MCP server. How should the agent close issue 88 as a duplicate of issue 12: which tool, and which arguments?'),
};

/** Every workload of the set, pair by pair (first, second). */
export function heldOutThreeWorkloads(): Workload[] {
  return HELD_OUT_THREE_PAIRS.flatMap((pair) => pair.workloads.map((id) => {
    const workload = BUILDERS[id]!();
    if (workload.id !== id) throw new Error(`builder for ${id} made ${workload.id}`);
    return workload;
  }));
}

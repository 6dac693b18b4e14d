/**
 * The second held-out set of issue 29 ("held-out-2"): one-request workloads of the issue's kinds,
 * built from pieces of ../shared/data that neither the own set nor the first held-out set uses
 * (loghub HealthApp and Mac, the small test reports of other runners, other trajectories, other
 * Cranfield and CoSQA queries, GitHub API recordings). Written without looking at what Herald
 * makes of them and measured once, untuned; cut into halves by {@link heldOutHalf} like the
 * first set. Facts come from each piece's ground truth: loghub templates, expected/*.md
 * summaries, unittest verdicts, qrels and CoSQA labels, submission diffs, recorded responses.
 */
import * as fs from 'node:fs';
import { loadCosqa } from '../cosqa';
import { loadTrajectory, sharedPath, trajectoryNames } from '../sharedData';
import { submissionFacts } from './code';
import { containsFact } from './facts';
import { unittestVerdict } from './heldOutData';
import { healthAppJson, healthAppLogfmt, labelledLines, macLogfmt, templateFacts } from './heldOutTwoLogs';
import { cranfieldDocuments, cranfieldQueries, judgements, terms } from './rag';
import { CHAT_SYSTEM, freshToolResult, MODEL, readShared } from './shape';
import { expectedFailures } from './testRuns';
import type { Workload } from './types';

function userMessage(content: string, system = CHAT_SYSTEM): Workload['body'] {
  return { model: MODEL, messages: [{ role: 'system', content: system }, { role: 'user', content }] };
}

/** Every text of an observation (`<output>`, or `<output_head>` and `<output_tail>`), joined as the agent saw them. */
function observation(instance: string, messageIndex: number): string {
  const content = loadTrajectory(instance).messages[messageIndex]!.content;
  const bodies = [...content.matchAll(/<(output|output_head|output_tail)>\n?([\s\S]*?)\n?<\/\1>/g)].map((match) => match[2]!);
  return bodies.join('\n').replace(/\n+$/, '');
}

/** The shell command of the assistant message before an observation. */
function commandBefore(instance: string, messageIndex: number): string {
  const content = loadTrajectory(instance).messages[messageIndex - 1]!.content;
  return [...content.matchAll(/```(?:bash)?\n([\s\S]*?)```/g)].pop()?.[1]?.trim() ?? '';
}

const failing = (template: string): boolean => /fail/i.test(template);

// ---------------------------------------------------------------- logs

function healthAppJsonLines(): Workload {
  const lines = labelledLines('HealthApp').slice(0, 1600);
  const question = 'Our step-counter app exports its logs as JSON lines. Which operations failed during this session, and in which component?';
  return {
    id: 'h2-healthapp-jsonl-failures',
    category: 'logs and data',
    pattern: '1,600 JSON-lines app log lines fenced under a question, a remark after',
    question,
    body: userMessage(`${question}\n\n\`\`\`jsonl\n${lines.map(healthAppJson).join('\n')}\n\`\`\`\n\nThe TIME_TICK and step-changed chatter is normal, skip it.`),
    facts: templateFacts(lines, failing),
    source: 'loghub HealthApp_2k.log lines 1–1600 rewritten as JSON objects (time, logger, pid, message); facts: the constant text of every template with "fail" in it (structured CSV)',
  };
}

const NETWORK = /Network is (?:down|unreachable)|No network route|appears to be offline/;

function macSyslogNetwork(): Workload {
  const lines = labelledLines('Mac').slice(0, 700);
  const question = 'My MacBook kept losing the network this morning. Which network errors does the system log show, and which processes hit them?';
  return {
    id: 'h2-mac-syslog-network',
    category: 'logs and data',
    pattern: '700 raw macOS syslog lines under a question',
    question,
    body: userMessage(`${question}\n\n${lines.map((line) => line.raw).join('\n')}`),
    facts: templateFacts(lines, (template) => NETWORK.test(template)),
    source: 'loghub Mac_2k.log lines 1–700 as printed; facts: the constant text of every template reporting the network down, unreachable, offline or without a route (structured CSV)',
  };
}

const CALENDAR = (template: string): boolean => /caldav|carddav/i.test(template) && /fail|error|timed out/i.test(template);

function macLogfmtCalendar(): Workload {
  const lines = labelledLines('Mac').slice(1000, 2000);
  const question = 'Why are calendar and contacts not syncing?';
  return {
    id: 'h2-mac-logfmt-calendar-between',
    category: 'logs and data',
    pattern: 'a logfmt system log between two paragraphs, question in the second',
    question,
    body: userMessage(`Calendar and contacts stopped syncing this afternoon. Our log shipper turned the Mac's syslog into logfmt:\n\n${lines.map(macLogfmt).join('\n')}\n\n${question} Just the errors that explain it, please.`),
    facts: templateFacts(lines, CALENDAR),
    source: 'loghub Mac_2k.log lines 1001–2000 rewritten as logfmt (ts, host, proc, pid, msg); facts: the constant text of every CalDAV/CardDAV template reporting a failure, error or time-out (structured CSV)',
  };
}

// ---------------------------------------------------------------- test runs

function report(file: string): string {
  return readShared('test-reports', ...file.split('/')).replace(/\n$/, '');
}

function mixedReportAndLog(): Workload {
  const xml = report('python-xunit-pytest.xml');
  const lines = labelledLines('HealthApp').slice(680, 800);
  const question = 'The nightly sync job went red. Which tests failed, and what did the app log as failing while they ran?';
  return {
    id: 'h2-mixed-xunit-and-logfmt',
    category: 'logs and data',
    pattern: 'a pytest xunit report and a logfmt app log in one paste, question first',
    question,
    body: userMessage(`${question}\n\n${xml}\n\n${lines.map(healthAppLogfmt).join('\n')}`),
    facts: [...expectedFailures('python-xunit-pytest.md', xml), ...templateFacts(lines, failing)],
    source: 'test-reports/python-xunit-pytest.xml followed by loghub HealthApp_2k.log lines 681–800 as logfmt; facts: the failures of expected/python-xunit-pytest.md and the constant text of every template with "fail" in the log part',
  };
}

function fourReports(): Workload {
  const parts = [
    { title: 'mobile (flutter test --machine)', file: 'dart-json.json', expected: 'dart-json.md' },
    { title: 'api (rspec --format json)', file: 'rspec-json.json', expected: 'rspec-json.md' },
    { title: 'ios (swift test --xunit-output)', file: 'swift-xunit.xml', expected: 'swift-xunit.md' },
    { title: 'native (ctest junit)', file: 'junit-with-message.xml', expected: 'junit-with-message.md' },
  ].map((part) => ({ ...part, text: report(part.file) }));
  const question = 'All four CI jobs failed. For each, which tests fail and with what error?';
  return {
    id: 'h2-four-runner-reports',
    category: 'logs and data',
    pattern: 'four reports of different runners (JSON lines, JSON, XML) pasted, question after',
    question,
    body: userMessage(`${parts.map((part) => `${part.title}:\n${part.text}`).join('\n\n')}\n\n${question}`),
    // A test named only "Test" (junit-with-message) would be found in any text: names under 6 characters are left out.
    facts: parts.flatMap((part) => expectedFailures(part.expected, part.text)).filter((fact) => fact.length >= 6),
    source: `test-reports ${parts.map((part) => part.file).join(', ')} pasted one after another; facts: the failures each expected/*.md lists (names under 6 characters, found in any text, left out)`,
  };
}

function phpunitReport(): Workload {
  const xml = report('external/phpunit/phpcheckstyle-phpunit.xml');
  const question = 'That is the PHPUnit junit log from our style-checker build. Which tests failed and why?';
  return {
    id: 'h2-phpunit-junit-after',
    category: 'logs and data',
    pattern: 'a 30-test PHPUnit JUnit report pasted, question after',
    question,
    body: userMessage(`${xml}\n\n${question}`),
    facts: expectedFailures('phpunit-phpcheckstyle-results.md', xml),
    source: 'test-reports/external/phpunit/phpcheckstyle-phpunit.xml pasted before the question; facts: the failures of expected/phpunit-phpcheckstyle-results.md',
  };
}

function djangoRunPasted(): Workload {
  const output = observation('django__django-11138', 165);
  const question = 'I ran the timezones tests after my change to the MySQL/SQLite backends. Which tests fail, and why?';
  return {
    id: 'h2-django-timezones-pasted',
    category: 'logs and data',
    pattern: 'a Django test-runner console output (head and tail) pasted under a question',
    question,
    body: userMessage(`${question}\n\n${output}`),
    facts: unittestVerdict(output),
    source: 'the test run of django__django-11138 (trajectory message 165, head and tail as the agent saw them) pasted without a fence; facts: each failing test and its exception line (unittest verdict)',
  };
}

function djangoRunTool(): Workload {
  const output = observation('django__django-15554', 129);
  const command = commandBefore('django__django-15554', 129);
  const question = 'Run the queries tests and tell me which ones fail and why.';
  return {
    id: 'h2-django-queries-tool',
    category: 'logs and data',
    pattern: 'a Django test-runner console output returned by a command',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: unittestVerdict(output),
    source: `\`${command}\` in django__django-15554 (trajectory message 129) as a fresh tool result; facts: each failing test and its exception line (unittest verdict)`,
  };
}

// ---------------------------------------------------------------- retrieval

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared === 0 ? 0 : shared / (a.size + b.size - shared);
}

function cranfieldChunksText(queryNumber: number): Workload {
  const documents = cranfieldDocuments();
  const judged = judgements().get(queryNumber)!;
  const query = cranfieldQueries()[queryNumber - 1]!;
  const wanted = new Set(terms(query));
  const scored = documents.map((document) => ({ document, score: jaccard(wanted, new Set(terms(`${document.title} ${document.text}`))) }));
  const answers = scored.filter((entry) => (judged.get(entry.document.id) ?? 99) <= 2);
  const others = scored.filter((entry) => !judged.has(entry.document.id)).sort((a, b) => b.score - a.score || a.document.id - b.document.id).slice(0, 20 - answers.length);
  const chunks = [...answers, ...others].sort((a, b) => b.score - a.score || a.document.id - b.document.id);
  const chunkId = (id: number): string => `aero-${id}:c0`;
  const listing = chunks.map((entry, rank) => `#${rank + 1}  id=${chunkId(entry.document.id)}  source=library/reports/cranfield/${entry.document.id}.txt  sim=${entry.score.toFixed(4)}\n${entry.document.title}\n${entry.document.text}`).join('\n\n');
  const question = `${query} Answer from the passages above only and cite the passage id for each claim.`;
  return {
    id: `h2-cranfield-passages-${queryNumber}`,
    category: 'RAG and tool-heavy',
    pattern: 'top-20 passages (id, source path, similarity) pasted, question after them',
    question,
    body: userMessage(`Retrieved passages:\n\n${listing}\n\n${question}`, 'You answer questions from retrieved passages and cite the passage ids you use.'),
    facts: answers.map((entry) => chunkId(entry.document.id)),
    source: `Cranfield query ${queryNumber}: its judged answers (codes 1–2) and the 20 − n unjudged documents with the highest word Jaccard, in that order; facts: each judged answer's passage id (cranqrel)`,
  };
}

function cosqaChunksJson(queryIndex: number): Workload {
  const cosqa = loadCosqa();
  const query = cosqa.queries[queryIndex]!;
  const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[a-z]{2,}/g) ?? []);
  const wanted = words(query.query);
  const scored = cosqa.corpus.map((code, index) => ({ index, code, score: jaccard(wanted, words(code)) }));
  const others = scored.filter((entry) => entry.index !== query.answer).sort((a, b) => b.score - a.score || a.index - b.index).slice(0, 19);
  const hits = [scored[query.answer]!, ...others].sort((a, b) => b.score - a.score || a.index - b.index);
  const chunkId = (index: number): string => `snippet-${index}`;
  const document = { query: query.query, top_k: 20, hits: hits.map((hit) => ({ id: chunkId(hit.index), path: `corpus/python/${hit.index}.py`, similarity: Number(hit.score.toFixed(4)), content: hit.code })) };
  const question = `Which of these snippets does "${query.query}"? Cite it by id.`;
  const answer = cosqa.corpus[query.answer]!;
  return {
    id: `h2-cosqa-hits-json-${queryIndex}`,
    category: 'RAG and tool-heavy',
    pattern: 'a code-search API\'s top-20 hits as JSON (id, path, similarity, code) under a question',
    question,
    body: userMessage(`${question}\n\n${JSON.stringify(document, null, 2)}`),
    facts: [chunkId(query.answer), answer.split('\n')[0]!.trim()],
    source: `CoSQA dev query ${queryIndex}: its labelled function and the 19 others sharing the most words with the query (Jaccard), as a search API's JSON; facts: the labelled snippet's id and first line (retrieval_idx)`,
  };
}

// ---------------------------------------------------------------- code search and files

function grepToolE015(): Workload {
  const instance = 'django__django-11820';
  const output = observation(instance, 7);
  const command = commandBefore(instance, 7);
  const files = [...loadTrajectory(instance).submission.matchAll(/^\+\+\+ b\/(\S+)/gm)].map((match) => match[1]!);
  const question = 'Where in the model checks is models.E015 raised for ordering? Show me the code path.';
  const hits = output.split('\n').filter((line) => files.some((file) => line.startsWith(`${file}:`)));
  return {
    id: 'h2-grep-e015-tool',
    category: 'code search, diffs, multi-file',
    pattern: 'a long `grep -r` output (head and tail) returned by a command',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: [...new Set(hits.map((line) => line.trimEnd()))],
    source: `\`${command}\` in ${instance} (trajectory message 7, head and tail); facts: every hit in the file the submission changes`,
  };
}

/** Every Python source file an agent of the trajectories printed whole with `cat`, first print of each path. */
function printedSourceFiles(): { path: string; text: string }[] {
  const files = new Map<string, string>();
  for (const instance of trajectoryNames()) {
    const messages = loadTrajectory(instance).messages;
    messages.forEach((message, index) => {
      if (message.role !== 'user' || index < 2) return;
      const command = [...(messages[index - 1]!.content ?? '').matchAll(/```(?:bash)?\n([\s\S]*?)```/g)].pop()?.[1]?.trim() ?? '';
      const file = /^(?:cd \/testbed && )?cat (\S+\.py)$/.exec(command)?.[1];
      const body = /<output>\n?([\s\S]*?)\n?<\/output>/.exec(message.content)?.[1];
      const relative = file?.replace(/^\.\//, '');
      if (relative !== undefined && body !== undefined && !files.has(relative)) files.set(relative, body);
    });
  }
  return [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([path, text]) => ({ path, text }));
}

function grepPastedFormat(): Workload {
  const word = 'check';
  const out: string[] = [];
  const definitions: string[] = [];
  for (const file of printedSourceFiles()) {
    const lines = file.text.split('\n');
    const matching = lines.map((line, index) => (line.includes(word) ? index : -1)).filter((index) => index >= 0);
    if (matching.length === 0) continue;
    const shown = new Set<number>();
    for (const index of matching) for (let at = Math.max(0, index - 1); at <= Math.min(lines.length - 1, index + 1); at++) shown.add(at);
    let last = -2;
    for (const index of [...shown].sort((a, b) => a - b)) {
      if (out.length > 0 && index !== last + 1) out.push('--');
      const hit = matching.includes(index);
      out.push(`${file.path}${hit ? ':' : '-'}${index + 1}${hit ? ':' : '-'}${lines[index]}`);
      if (hit && /^\s*(?:async\s+)?(?:def|class)\s+\w*check\w*\s*[(:]/i.test(lines[index]!)) definitions.push(`${file.path}:${index + 1}:`);
      last = index;
    }
  }
  const question = 'Which functions or classes with "check" in the name are defined here (file and line), as opposed to just calling them?';
  return {
    id: 'h2-grep-check-defs-pasted',
    category: 'code search, diffs, multi-file',
    pattern: 'a pasted `grep -rn -C1 check` (shell prompt line, context lines) under a question',
    question,
    body: userMessage(`${question}\n\n$ grep -rn -C1 check .\n${out.join('\n')}`),
    facts: definitions,
    source: 'grep -rn -C1 check over every Python file an agent of the trajectories printed whole with cat (first print of each path), printed as grep prints it; facts: the file:line: of every hit that defines a function or class named with "check" (Python syntax)',
  };
}

function filesFacts(instance: string, sources: readonly { path: string; text: string }[]): string[] {
  const all = sources.map((source) => source.text).join('\n');
  return submissionFacts(instance, sources).filter((fact) => containsFact(all, fact));
}

function filesReadTool(): Workload {
  const instance = 'django__django-10880';
  const files = [{ messageIndex: 9, path: 'django/db/models/aggregates.py' }, { messageIndex: 47, path: 'tests/aggregation/models.py' }];
  const sources = files.map((file) => ({ path: file.path, text: observation(instance, file.messageIndex) }));
  const command = `cat ${files.map((file) => file.path).join(' ')}`;
  const output = sources.map((source) => `# ---- ${source.path}\n${source.text}`).join('\n');
  const question = 'Count(\'x\', distinct=True) combined with a Case() condition produces "COUNT(DISTINCTCASE WHEN ...": a space is missing. Where is that SQL put together?';
  return {
    id: 'h2-files-aggregates-tool',
    category: 'code search, diffs, multi-file',
    pattern: 'two whole files printed by one command, as a tool result',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: filesFacts(instance, sources),
    source: `${instance}: the files its agent printed whole with cat (${files.map((file) => file.path).join(', ')}), concatenated; facts: the submission's hunk context and the definition each hunk changes`,
  };
}

function filesPasted(): Workload {
  const instance = 'django__django-13195';
  const files = [{ messageIndex: 17, path: 'django/contrib/messages/storage/cookie.py' }, { messageIndex: 21, path: 'django/contrib/sessions/middleware.py' }];
  const sources = files.map((file) => ({ path: file.path, text: observation(instance, file.messageIndex) }));
  const question = 'HttpResponse.delete_cookie() drops the SameSite attribute, so browsers warn about the messages cookie.';
  const pasted = sources.map((source) => `\`${source.path}\`:\n\`\`\`python\n${source.text}\n\`\`\``).join('\n\n');
  return {
    id: 'h2-files-cookies-pasted',
    category: 'code search, diffs, multi-file',
    pattern: 'two whole files pasted in fences between a problem statement and the question',
    question,
    body: userMessage(`${question} Here are the two places that delete cookies:\n\n${pasted}\n\nWhat has to change in these files so the cookie keeps its SameSite setting when deleted?`),
    facts: filesFacts(instance, sources),
    source: `${instance}: the files its agent printed whole with cat (${files.map((file) => file.path).join(', ')}); facts: the submission's hunk context and the definition each hunk changes, in these files`,
  };
}

// ---------------------------------------------------------------- JSON API dumps

interface Recorded { readonly method: string; readonly path: string; readonly status: number; readonly body?: unknown; readonly response: unknown }

function recording(name: string): Recorded[] {
  return JSON.parse(fs.readFileSync(sharedPath('json', 'github-api', name), 'utf8')) as Recorded[];
}

function branchProtectionDump(): Workload {
  const exchanges = recording('branch-protection.json');
  const notFound = exchanges.find((exchange) => exchange.status === 404)!;
  const last = [...exchanges].reverse().find((exchange) => exchange.method === 'put' && /\/protection$/.test(exchange.path))!;
  const protection = last.response as { required_status_checks?: { contexts?: string[] }; restrictions?: { users?: { login: string }[]; teams?: { slug: string }[] }; required_pull_request_reviews?: { required_approving_review_count?: number } };
  const question = 'Here is the recorded API session of our branch-protection script. Why did the first GET fail, and what does main require once the script is done (status checks, who may push)?';
  const dump = JSON.stringify(exchanges, null, 2);
  const facts = [
    (notFound.response as { message: string }).message,
    ...(protection.required_status_checks?.contexts ?? []),
    ...(protection.restrictions?.users ?? []).map((user) => user.login),
    ...(protection.restrictions?.teams ?? []).map((team) => team.slug),
  ];
  return {
    id: 'h2-github-protection-json',
    category: 'logs and data',
    pattern: 'a recorded REST session (7 requests and responses, pretty JSON) under a question',
    question,
    body: userMessage(`${question}\n\n${dump}`),
    facts: [...new Set(facts)],
    source: 'json/github-api/branch-protection.json (octokit/fixtures) pretty-printed; facts: the 404 response\'s message and, from the last PUT …/protection response, the required status-check contexts and the users and teams allowed to push',
  };
}

function searchIssuesTool(): Workload {
  const exchanges = recording('search-issues.json');
  const search = exchanges.find((exchange) => exchange.path.startsWith('/search/issues'))!;
  const result = search.response as { total_count: number; items: { number: number; title: string }[] };
  const question = 'Search the fixture repository\'s issues for "sesame" and tell me which issues match (number and title).';
  const command = `curl -s -H 'Accept: application/vnd.github+json' 'https://api.github.com${search.path}'`;
  return {
    id: 'h2-github-search-tool',
    category: 'RAG and tool-heavy',
    pattern: 'a GitHub search API response returned by curl',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, JSON.stringify(result, null, 2)),
    facts: result.items.flatMap((item) => [`"number": ${item.number}`, item.title]),
    source: 'the /search/issues response recorded in json/github-api/search-issues.json (octokit/fixtures), pretty-printed as curl\'s output; facts: each matching issue\'s number and title',
  };
}

export function heldOutTwoWorkloads(): Workload[] {
  return [
    healthAppJsonLines(),
    macSyslogNetwork(),
    macLogfmtCalendar(),
    mixedReportAndLog(),
    fourReports(),
    phpunitReport(),
    djangoRunPasted(),
    djangoRunTool(),
    cranfieldChunksText(61),
    cosqaChunksJson(250),
    grepToolE015(),
    grepPastedFormat(),
    filesReadTool(),
    filesPasted(),
    branchProtectionDump(),
    searchIssuesTool(),
  ];
}


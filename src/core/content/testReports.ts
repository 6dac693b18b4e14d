/**
 * Structured test reports (JUnit/xUnit/NUnit/TRX XML; mocha, jest and rspec JSON; go test
 * and dart JSON lines) read into one list of test results, then written as a digest:
 * every failure with its message and location, then one summary line with the counts.
 */
import { decodeEntities, tokenizeMarkup } from './markup';
import { cleanStackTrace } from './stackTrace';

/** One test's outcome as a report records it. */
export interface TestResult {
  /** The suite, file or class the test belongs to. */
  readonly suite: string;
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'skipped';
  /** The failure message (first lines of what the runner printed). */
  readonly message?: string;
  /** Where the test or the failure is: `file:line` when the report says. */
  readonly location?: string;
}

/** A parsed report: its results and, when the report states them, its own totals. */
export interface TestReport {
  readonly kind: string;
  readonly results: TestResult[];
  /** Elapsed time as the report gives it, already formatted (`19ms`, `3.41s`). */
  readonly time?: string;
}

/** Lines of a failure message kept in the digest; the rest is a count. */
const MESSAGE_LINES = 12;

/** Reads a report when the text is one we know; undefined otherwise. */
export function parseTestReport(text: string): TestReport | undefined {
  const head = text.slice(0, 2_000).trimStart();
  try {
    if (head.startsWith('<')) return parseXmlReport(text);
    if (head.startsWith('{') || head.startsWith('[')) return parseJsonReport(text);
  } catch {
    return undefined;
  }
  return undefined;
}

/** Whether the text's start looks like a test report we can read (cheap, for detection). */
export function looksLikeTestReport(text: string): boolean {
  const head = text.slice(0, 4_000);
  if (/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)?<(?:testsuites|testsuite|test-run|test-results|TestRun|assemblies)\b/.test(head)) return true;
  if (/^\s*\{"Time":"[^"]*","Action":"(?:start|run|output|pass|fail|skip)"/.test(head)) return true;
  if (/^\s*\{"protocolVersion":"[^"]*","runnerVersion"/.test(head)) return true;
  if (!/^\s*\{/.test(head)) return false;
  const start = text.slice(0, 200_000);
  return (
    (/"numTotalTests"\s*:/.test(start) && /"testResults"\s*:\s*\[/.test(start)) || // jest --json
    (/"stats"\s*:\s*\{/.test(start) && /"passes"\s*:/.test(start) && /"tests"\s*:\s*\[/.test(start)) || // mocha json
    (/"examples"\s*:\s*\[/.test(start) && /"full_description"\s*:|"summary_line"\s*:/.test(start)) // rspec json
  );
}

function attribute(attributes: ReadonlyMap<string, string>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = attributes.get(name.toLowerCase());
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** Elements whose text is a failure's message and stack. */
const CAPTURED = new Set(['failure', 'error', 'errorinfo']);

function parseXmlReport(text: string): TestReport | undefined {
  const results: TestResult[] = [];
  const suites: string[] = [];
  let current: { suite: string; name: string; status: TestResult['status']; message: string[]; location?: string } | undefined;
  // Text inside <failure>, <error> or <ErrorInfo> (children included) is the failure's message.
  let capture: string[] = [];
  let captureDepth = 0;
  let kind = 'junit';
  let time: string | undefined;
  const finish = (): void => {
    if (current === undefined) return;
    const message = current.message.join('\n').trim();
    results.push({ suite: current.suite, name: current.name, status: current.status, message: message === '' ? undefined : message, location: current.location });
    current = undefined;
  };
  for (const token of tokenizeMarkup(text, { rawText: false })) {
    if (token.kind === 'text' || token.kind === 'cdata') {
      if (captureDepth > 0) capture.push(token.kind === 'text' ? decodeEntities(token.text) : token.text);
      continue;
    }
    if (token.kind === 'end') {
      if (token.name === 'testcase' || token.name === 'test-case' || token.name === 'unittestresult') finish();
      else if (token.name === 'testsuite' || token.name === 'test-suite') suites.pop();
      else if (CAPTURED.has(token.name) && captureDepth > 0) {
        captureDepth--;
        if (captureDepth === 0 && current !== undefined) current.message.push(capture.join('\n'));
      }
      continue;
    }
    const attributes = token.attributes;
    switch (token.name) {
      case 'test-run':
        kind = 'nunit';
        time ??= attribute(attributes, 'duration');
        break;
      case 'testrun':
        kind = 'trx';
        break;
      case 'testsuites':
        time ??= attribute(attributes, 'time');
        break;
      case 'testsuite':
      case 'test-suite':
        time ??= suites.length === 0 ? attribute(attributes, 'time') : undefined;
        if (!token.selfClosing) suites.push(attribute(attributes, 'name', 'fullname') ?? '');
        break;
      case 'testcase':
      case 'test-case':
      case 'unittestresult': {
        finish();
        const result = (attribute(attributes, 'result', 'outcome', 'status') ?? '').toLowerCase();
        const status: TestResult['status'] = /fail|error/.test(result) ? 'failed' : /skip|ignore|notexecuted|inconclusive|pending/.test(result) ? 'skipped' : 'passed';
        const file = attribute(attributes, 'file', 'filepath');
        const line = attribute(attributes, 'line', 'lineno');
        current = {
          suite: attribute(attributes, 'classname') ?? suites[suites.length - 1] ?? '',
          name: attribute(attributes, 'name', 'testname') ?? '(unnamed)',
          status,
          message: [],
          location: file === undefined ? undefined : line === undefined ? file : `${file}:${line}`,
        };
        if (token.selfClosing) finish();
        break;
      }
      case 'failure':
      case 'error':
      case 'errorinfo':
        if (current !== undefined) {
          current.status = 'failed';
          const message = attribute(attributes, 'message');
          const type = attribute(attributes, 'type');
          if (message !== undefined || type !== undefined) current.message.push([type, message].filter((part) => part !== undefined).join(': '));
          if (!token.selfClosing) {
            if (captureDepth === 0) capture = [];
            captureDepth++;
          }
        }
        break;
      case 'skipped':
        if (current !== undefined && current.status !== 'failed') {
          current.status = 'skipped';
          const message = attribute(attributes, 'message');
          if (message !== undefined) current.message.push(message);
        }
        break;
      default:
        break;
    }
  }
  finish();
  if (results.length === 0 && !/<(?:testsuites|testsuite|test-run|testrun)\b/i.test(text.slice(0, 4_000))) return undefined;
  return { kind, results, time: formatSeconds(time) };
}

function formatSeconds(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const seconds = typeof value === 'number' ? value : Number.parseFloat(value);
  if (!Number.isFinite(seconds)) return undefined;
  return seconds < 1 ? `${Math.round(seconds * 1000)}ms` : `${seconds.toFixed(2)}s`;
}

type JsonObject = { readonly [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

function parseJsonReport(source: string): TestReport | undefined {
  const first = source.trimStart();
  if (/^\{"Time":"/.test(first)) return parseGoJson(jsonLines(source));
  if (/^\{"protocolVersion":/.test(first)) return parseDartJson(jsonLines(source));
  const value: unknown = JSON.parse(source);
  if (!isObject(value)) return undefined;
  if (isObject(value['stats']) && Array.isArray(value['tests'])) return parseMochaJson(value);
  if (Array.isArray(value['examples'])) return parseRspecJson(value);
  if (Array.isArray(value['testResults'])) return parseJestJson(value);
  return undefined;
}

function jsonLines(source: string): JsonObject[] {
  const events: JsonObject[] = [];
  for (const line of source.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    try {
      const event: unknown = JSON.parse(trimmed);
      if (isObject(event)) events.push(event);
    } catch {
      // Interleaved non-JSON lines (a runner's own prints) are skipped.
    }
  }
  return events;
}

function parseMochaJson(report: JsonObject): TestReport {
  const pending = new Set((Array.isArray(report['pending']) ? report['pending'] : []).filter(isObject).map((test) => text(test['fullTitle'])));
  const results: TestResult[] = [];
  for (const test of (report['tests'] as unknown[]).filter(isObject)) {
    const error = isObject(test['err']) ? test['err'] : {};
    const failed = Object.keys(error).length > 0;
    const fullTitle = text(test['fullTitle']) ?? text(test['title']) ?? '(unnamed)';
    results.push({
      suite: text(test['file']) ?? '',
      name: fullTitle,
      status: failed ? 'failed' : pending.has(fullTitle) || test['pending'] === true ? 'skipped' : 'passed',
      message: failed ? (text(error['stack']) ?? text(error['message'])) : undefined,
    });
  }
  const stats = report['stats'] as JsonObject;
  return { kind: 'mocha', results, time: typeof stats['duration'] === 'number' ? `${stats['duration']}ms` : undefined };
}

function parseRspecJson(report: JsonObject): TestReport {
  const results: TestResult[] = [];
  for (const example of (report['examples'] as unknown[]).filter(isObject)) {
    const status = text(example['status']) ?? '';
    const exception = isObject(example['exception']) ? example['exception'] : undefined;
    const file = text(example['file_path']);
    const line = text(example['line_number']);
    results.push({
      suite: file ?? '',
      name: text(example['full_description']) ?? text(example['description']) ?? '(unnamed)',
      status: status === 'failed' ? 'failed' : status === 'pending' ? 'skipped' : 'passed',
      message: exception === undefined ? text(example['pending_message']) : [text(exception['class']), text(exception['message'])].filter((part) => part !== undefined).join(': '),
      location: file === undefined ? undefined : line === undefined ? file : `${file}:${line}`,
    });
  }
  const summary = isObject(report['summary']) ? report['summary'] : {};
  return { kind: 'rspec', results, time: formatSeconds(typeof summary['duration'] === 'number' ? summary['duration'] : undefined) };
}

function parseJestJson(report: JsonObject): TestReport {
  const results: TestResult[] = [];
  for (const file of (report['testResults'] as unknown[]).filter(isObject)) {
    const suite = text(file['name']) ?? text(file['testFilePath']) ?? '';
    const assertions = (Array.isArray(file['assertionResults']) ? file['assertionResults'] : Array.isArray(file['testResults']) ? file['testResults'] : []).filter(isObject);
    for (const assertion of assertions) {
      const status = text(assertion['status']) ?? '';
      const location = isObject(assertion['location']) ? `${suite}:${text(assertion['location']['line']) ?? ''}` : undefined;
      const messages = Array.isArray(assertion['failureMessages']) ? assertion['failureMessages'].filter((message): message is string => typeof message === 'string') : [];
      results.push({
        suite,
        name: text(assertion['fullName']) ?? text(assertion['title']) ?? '(unnamed)',
        status: status === 'failed' ? 'failed' : status === 'passed' ? 'passed' : 'skipped',
        message: messages.length > 0 ? messages.join('\n') : undefined,
        location,
      });
    }
    // A file that failed to run (syntax error, missing module) has no assertions but a message.
    if (assertions.length === 0 && text(file['status']) === 'failed') results.push({ suite, name: suite, status: 'failed', message: text(file['message']) });
  }
  return { kind: 'jest', results };
}

function parseGoJson(events: readonly JsonObject[]): TestReport | undefined {
  const outputs = new Map<string, string[]>();
  const results: TestResult[] = [];
  let elapsed = 0;
  for (const event of events) {
    const action = text(event['Action']);
    const packageName = text(event['Package']) ?? '';
    const test = text(event['Test']);
    const key = `${packageName}\u0000${test ?? ''}`;
    if (action === 'output') {
      const output = text(event['Output']) ?? '';
      const lines = outputs.get(key) ?? [];
      lines.push(output);
      outputs.set(key, lines);
    } else if (action === 'pass' || action === 'fail' || action === 'skip') {
      if (test === undefined) {
        if (typeof event['Elapsed'] === 'number') elapsed += event['Elapsed'];
        if (action === 'fail') {
          const lines = (outputs.get(key) ?? []).filter((line) => !/^(?:FAIL|ok)\s|^exit status/.test(line));
          if (!results.some((result) => result.suite === packageName && result.status === 'failed')) results.push({ suite: packageName, name: packageName, status: 'failed', message: lines.join('').trim() || undefined });
        }
        continue;
      }
      const lines = (outputs.get(key) ?? []).filter((line) => !/^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:PASS|FAIL|SKIP):)/.test(line));
      const message = lines.join('').replace(/^\s+/gm, '').trim();
      const location = /^([\w./-]+\.go:\d+)/m.exec(message)?.[1];
      results.push({ suite: packageName, name: test, status: action === 'pass' ? 'passed' : action === 'fail' ? 'failed' : 'skipped', message: action === 'pass' || message === '' ? undefined : message, location });
    }
  }
  if (results.length === 0 && events.length === 0) return undefined;
  return { kind: 'go test', results, time: elapsed > 0 ? formatSeconds(elapsed) : undefined };
}

function parseDartJson(events: readonly JsonObject[]): TestReport {
  const suites = new Map<number, string>();
  const groups = new Map<number, string>();
  const tests = new Map<number, { suite: string; name: string; location?: string; hidden: boolean; messages: string[] }>();
  const results: TestResult[] = [];
  let time: number | undefined;
  for (const event of events) {
    const type = text(event['type']);
    if (type === 'suite' && isObject(event['suite'])) {
      suites.set(Number(event['suite']['id']), text(event['suite']['path']) ?? '');
    } else if (type === 'group' && isObject(event['group'])) {
      groups.set(Number(event['group']['id']), text(event['group']['name']) ?? '');
    } else if (type === 'testStart' && isObject(event['test'])) {
      const test = event['test'];
      const suite = suites.get(Number(test['suiteID'])) ?? '';
      const line = text(test['line']);
      const url = text(test['url']);
      const path = url === undefined ? suite : url.replace(/^file:\/\//, '');
      tests.set(Number(test['id']), { suite, name: text(test['name']) ?? '(unnamed)', location: line === undefined ? undefined : `${path}:${line}`, hidden: false, messages: [] });
    } else if (type === 'print') {
      // Flutter prints the caught exception (expected/actual) before the error event.
      const test = tests.get(Number(event['testID']));
      const message = text(event['message']);
      if (test !== undefined && message !== undefined) test.messages.push(withoutBanners(message).trim());
    } else if (type === 'error') {
      const test = tests.get(Number(event['testID']));
      if (test !== undefined) test.messages.push([text(event['error']), text(event['stackTrace'])].filter((part) => part !== undefined).join('\n'));
    } else if (type === 'testDone') {
      const test = tests.get(Number(event['testID']));
      if (test === undefined || event['hidden'] === true) continue;
      const result = text(event['result']);
      const status: TestResult['status'] = event['skipped'] === true ? 'skipped' : result === 'success' ? 'passed' : 'failed';
      results.push({ suite: test.suite, name: test.name, status, message: status === 'failed' ? test.messages.join('\n').trim() || undefined : undefined, location: test.location });
    } else if (type === 'done' && typeof event['time'] === 'number') {
      time = event['time'];
    }
  }
  return { kind: 'dart', results, time: time === undefined ? undefined : `${time}ms` };
}

/** The digest: failures with message and location, then `N tests: p passed, f failed, s skipped`. */
export function renderTestReport(report: TestReport): string {
  const lines: string[] = [];
  const failed = report.results.filter((result) => result.status === 'failed');
  for (const failure of failed) {
    const where = failure.location !== undefined ? ` (${failure.location})` : '';
    const suite = failure.suite !== '' && failure.suite !== failure.name && !failure.name.includes(failure.suite) ? `${failure.suite} › ` : '';
    lines.push(`FAILED ${suite}${failure.name}${where}`);
    if (failure.message !== undefined) {
      // Library frames collapse first, so the cap on lines keeps the project's frames.
      const message = cleanStackTrace(decodeEntities(failure.message)).text;
      const messageLines = message.split(/\r?\n/).map((line) => line.trimEnd()).filter((line) => line.trim() !== '');
      for (const line of messageLines.slice(0, MESSAGE_LINES)) lines.push(`    ${line.replace(/^\s+/, (indent) => indent.slice(0, 8))}`);
      if (messageLines.length > MESSAGE_LINES) lines.push(`    … ${messageLines.length - MESSAGE_LINES} more lines`);
    }
  }
  const passed = report.results.filter((result) => result.status === 'passed').length;
  const skipped = report.results.filter((result) => result.status === 'skipped').length;
  const total = report.results.length;
  lines.push(`${report.kind}: ${total} tests: ${passed} passed, ${failed.length} failed, ${skipped} skipped${report.time !== undefined ? ` in ${report.time}` : ''}`);
  return lines.join('\n');
}

/**
 * Flutter's banner lines (`══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞═══`: box drawing
 * around six or more capitals and spaces) emptied. Checked by hand, line by line: the obvious
 * pattern `^[═╡╞ ]*[A-Z ]{6,}[═╡╞ ]*$` backtracks cubically on a long line of spaces.
 */
export function withoutBanners(message: string): string {
  // The same line ends a multiline regular expression knows; the separators are kept (odd indices).
  return message.split(/([\n\r\u2028\u2029])/).map((piece, index) => (index % 2 === 0 && isBanner(piece) ? '' : piece)).join('');
}

function isBanner(line: string): boolean {
  if (!/^[═╡╞ A-Z]*$/.test(line)) return false;
  const first = line.search(/[A-Z]/);
  if (first < 0) return line.includes('      ');
  let last = line.length - 1;
  while (!/[A-Z]/.test(line[last]!)) last--;
  if (/[═╡╞]/.test(line.slice(first, last + 1))) return false;
  let start = first;
  while (start > 0 && line[start - 1] === ' ') start--;
  let end = last + 1;
  while (end < line.length && line[end] === ' ') end++;
  return end - start >= 6;
}

/**
 * The content cleaners on the shared material: per format, how much smaller the cleaned
 * text is (characters and o200k tokens) and how fast the cleaner runs (MB/s, median of
 * three passes). Formats without a dedicated data set are measured on the tool outputs of
 * the agent trajectories, each cleaned as the format its command and shape say.
 */
import * as fs from 'node:fs';
import { parseRequest } from '../../src/core/chat/convert';
import { findToolOutputs } from '../../src/core/chat/toolOutput';
import { cleanContent, detectContentFormat, forgetCleanings, type CleanOptions, type ContentFormat } from '../../src/core/content';
import { TokenCounter } from '../../src/core/tokens';
import { expectedWords, keptShare } from '../support/mainContentWords';
import { loadTrajectory, sharedPath, trajectoryNames } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, percent } from './stats';

interface Sample {
  readonly label: string;
  readonly text: string;
  readonly options: CleanOptions;
}

interface Measure {
  readonly set: string;
  readonly samples: number;
  readonly changed: number;
  readonly charsBefore: number;
  readonly charsAfter: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly megabytesPerSecond: number;
}

const PASSES = 3;

function measure(set: string, samples: readonly Sample[], tokens: TokenCounter): Measure {
  const outputs = samples.map((sample) => cleanContent(sample.text, sample.options));
  const durations: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    // Each pass cleans for itself: cleanContent remembers what it cleaned (content/cleanMemo.ts).
    forgetCleanings();
    const started = performance.now();
    for (const sample of samples) cleanContent(sample.text, sample.options);
    durations.push(performance.now() - started);
  }
  const charsBefore = samples.reduce((sum, sample) => sum + sample.text.length, 0);
  return {
    set,
    samples: samples.length,
    changed: outputs.filter((output) => output.changed).length,
    charsBefore,
    charsAfter: outputs.reduce((sum, output) => sum + output.text.length, 0),
    tokensBefore: samples.reduce((sum, sample) => sum + tokens.count(sample.text), 0),
    tokensAfter: outputs.reduce((sum, output) => sum + tokens.count(output.text), 0),
    megabytesPerSecond: charsBefore / 1_000_000 / (Math.max(median(durations), 0.001) / 1000),
  };
}

function htmlSamples(): Sample[] {
  return fs.readdirSync(sharedPath('html')).sort().map((page) => ({ label: page, text: fs.readFileSync(sharedPath('html', page, 'source.html'), 'utf8'), options: { format: 'html' as const } }));
}

/** The main-content figures of the HTML pages: expected words kept per page, and the cleaned text's share of the page. */
function htmlMainContent(): { pages: number; pagesAtLeast98: number; minimumKept: number; pageShare: number; oneLineDetected: number } {
  let pagesAtLeast98 = 0;
  let minimumKept = 1;
  let sourceChars = 0;
  let cleanedChars = 0;
  let oneLineDetected = 0;
  const pages = fs.readdirSync(sharedPath('html')).sort();
  for (const page of pages) {
    const source = fs.readFileSync(sharedPath('html', page, 'source.html'), 'utf8');
    const cleaned = cleanContent(source, { format: 'html' }).text;
    const kept = keptShare(expectedWords(fs.readFileSync(sharedPath('html', page, 'expected.html'), 'utf8')), cleaned);
    if (kept >= 0.98) pagesAtLeast98++;
    minimumKept = Math.min(minimumKept, kept);
    sourceChars += source.length;
    cleanedChars += cleaned.length;
    // A minified response as a fetch tool shows it: status line, headers, the page on one line.
    if (detectContentFormat(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${source.replace(/\s*\n\s*/g, ' ')}`) === 'html') oneLineDetected++;
  }
  return { pages: pages.length, pagesAtLeast98, minimumKept, pageShare: cleanedChars / sourceChars, oneLineDetected };
}

function jsonSamples(): Sample[] {
  const folder = sharedPath('json', 'github-api');
  return fs.readdirSync(folder).sort().map((file) => ({ label: file, text: fs.readFileSync(`${folder}/${file}`, 'utf8'), options: { path: file } }));
}

function reportSamples(): Sample[] {
  const folder = sharedPath('test-reports');
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(`${folder}/${relative}`, { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'expected') walk(path);
      else if (entry.isFile() && /\.(?:xml|json)$/.test(entry.name)) files.push(path);
    }
  };
  walk('');
  return files.sort().map((path) => ({ label: path, text: fs.readFileSync(`${folder}/${path}`, 'utf8'), options: { format: 'test-output' as const } }));
}

function logSamples(system: string): Sample[] {
  return [{ label: system, text: fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8'), options: {} }];
}

/** Tool outputs of the trajectories, grouped by the format detection gives them. */
function trajectorySamples(): Map<ContentFormat, Sample[]> {
  const byFormat = new Map<ContentFormat, Sample[]>();
  for (const name of trajectoryNames()) {
    const request = parseRequest({ model: 'gpt-4o', messages: loadTrajectory(name).messages });
    for (const segment of findToolOutputs(request)) {
      const options: CleanOptions = { command: segment.command };
      const format = detectContentFormat(segment.text, options);
      const samples = byFormat.get(format) ?? [];
      samples.push({ label: `${name}: ${segment.command ?? ''}`, text: segment.text, options });
      byFormat.set(format, samples);
    }
  }
  return byFormat;
}

function line(result: Measure): string {
  return `${result.set.padEnd(34)} ${String(result.samples).padStart(5)} samples, ${String(result.changed).padStart(5)} changed · chars ${result.charsBefore} → ${result.charsAfter} (−${percent(result.charsBefore - result.charsAfter, result.charsBefore)}) · tokens ${result.tokensBefore} → ${result.tokensAfter} (−${percent(result.tokensBefore - result.tokensAfter, result.tokensBefore)}) · ${result.megabytesPerSecond.toFixed(1)} MB/s`;
}

export async function bench(): Promise<BenchReport> {
  const tokens = new TokenCounter(200_000);
  const results: Measure[] = [];
  results.push(measure('html (65 readability pages)', htmlSamples(), tokens));
  results.push(measure('json (github-api fixtures)', jsonSamples(), tokens));
  results.push(measure('test-output (test-reports)', reportSamples(), tokens));
  const systems = fs.readdirSync(sharedPath('logs')).sort();
  const logResults = systems.map((system) => measure(`log (${system})`, logSamples(system), tokens));
  results.push(measure('log (all 10 loghub systems)', systems.flatMap(logSamples), tokens));
  results.push(...logResults);
  const trajectories = trajectorySamples();
  for (const format of ['test-output', 'grep', 'file-listing', 'stack-trace', 'diff', 'log', 'html', 'json', 'text'] as const) {
    const samples = trajectories.get(format);
    if (samples !== undefined && samples.length > 0) results.push(measure(`trajectories: ${format}`, samples, tokens));
  }
  const all = [...trajectories.values()].flat();
  results.push(measure('trajectories: every tool output', all, tokens));
  const main = htmlMainContent();
  const mainLine = `html main content: ${main.pagesAtLeast98} of ${main.pages} pages keep ≥ 98% of expected.html's words (least ${(100 * main.minimumKept).toFixed(1)}%), cleaned text ${(100 * main.pageShare).toFixed(1)}% of the pages' characters; ${main.oneLineDetected} of ${main.pages} pages on one line after a status line and headers detected as html`;
  return {
    title: 'Content cleaners: size reduction and speed per format',
    lines: [...results.map(line), mainLine],
    figures: { ...Object.fromEntries(results.map((result) => [result.set, result])), 'html main content': main },
  };
}

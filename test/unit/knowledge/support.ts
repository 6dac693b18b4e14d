/** Shared helpers for the knowledge tests: the test library, a fixed clock, a recording fake model. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ModelCompletionRequest, ModelPort } from '../../../src/core/ports';

export const LIBRARY_DIR = path.resolve(__dirname, '..', '..', 'fixtures', 'library');

/** A day when the 2025 promotion has expired and the 2027 one has not. */
export const TODAY = new Date('2026-06-01T12:00:00Z');
export const now = (): Date => TODAY;

/** A fake model that records every request and answers with `answer(request)`. */
export class RecordingModel implements ModelPort {
  readonly name = 'fake/recording';
  readonly requests: ModelCompletionRequest[] = [];

  constructor(private readonly answer: (request: ModelCompletionRequest) => string | Promise<string>) {}

  async complete(request: ModelCompletionRequest): Promise<string> {
    this.requests.push(request);
    return this.answer(request);
  }
}

/** A copy of the test library in a fresh temp folder, to change without touching the fixture. */
export function copyLibrary(): string {
  const target = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-library-'));
  fs.cpSync(LIBRARY_DIR, target, { recursive: true });
  return target;
}

/** A temp library made of the given files (relative path → content). */
export function writeLibrary(files: Readonly<Record<string, string>>): string {
  const target = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-library-'));
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(target, relative)), { recursive: true });
    fs.writeFileSync(path.join(target, relative), content);
  }
  return target;
}

/** The judge prompt's candidates: id, kind and label line. */
export function judgeCandidates(prompt: string): { id: string; kind: string; label: string; text: string }[] {
  const lines = prompt.split('\n');
  const found: { id: string; kind: string; label: string; text: string }[] = [];
  lines.forEach((line, index) => {
    const match = /^\[(c\d+)\] \((section|row|pack)\) (.*)$/.exec(line);
    if (match) found.push({ id: match[1]!, kind: match[2]!, label: match[3]!, text: lines[index + 1] ?? '' });
  });
  return found;
}

let shared: import('../../../src/core/knowledge/library').Library | undefined;

/** The test library, loaded once per test run (loading counts tokens of every section). */
export async function testLibrary(): Promise<import('../../../src/core/knowledge/library').Library> {
  const { loadLibrary } = await import('../../../src/core/knowledge/library');
  shared ??= loadLibrary(LIBRARY_DIR);
  return shared;
}

/**
 * Held-out: code context. Search hits of `rg -n -C1 retry` over real JavaScript (the SDKs this
 * project installs, pinned by its lockfile) under "where is it defined, not just used?", and
 * several whole source files read in one turn (files an agent of the trajectories printed).
 * Facts: the hits that define a retry function, method or class (by the code's own syntax), and
 * the submission's hunk context and changed definitions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Workload } from './types';
import { observationOutput, submissionFacts } from './code';
import { CHAT_SYSTEM, freshToolResult, MODEL } from './shape';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function filesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(file));
    else if (entry.isFile() && /\.js$/.test(entry.name) && !/\.min\.js$/.test(entry.name)) found.push(file);
  }
  return found;
}

/**
 * What `rg -n -C1 <word> <folder> -g '*.js'` prints when piped: `path:line:text` for a hit,
 * `path-line-text` for context, `--` between groups that do not touch.
 */
export function ripgrepHits(folder: string, word: string): { output: string; hits: { path: string; line: number; text: string }[] } {
  const out: string[] = [];
  const hits: { path: string; line: number; text: string }[] = [];
  for (const file of filesUnder(path.join(ROOT, folder))) {
    const relative = path.relative(ROOT, file);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const matching = lines.map((line, index) => (line.includes(word) ? index : -1)).filter((index) => index >= 0);
    if (matching.length === 0) continue;
    let last = -2;
    const shown = new Set<number>();
    for (const index of matching) for (let at = Math.max(0, index - 1); at <= Math.min(lines.length - 1, index + 1); at++) shown.add(at);
    for (const index of [...shown].sort((a, b) => a - b)) {
      if (out.length > 0 && index !== last + 1) out.push('--');
      const hit = matching.includes(index);
      out.push(`${relative}${hit ? ':' : '-'}${index + 1}${hit ? ':' : '-'}${lines[index]}`);
      if (hit) hits.push({ path: relative, line: index + 1, text: lines[index]! });
      last = index;
    }
  }
  return { output: out.join('\n'), hits };
}

/** A line that defines a function, method or class whose name holds the word (JavaScript syntax). */
export function definesWord(line: string, word: string): boolean {
  const name = `\\w*${word[0]!.toUpperCase() === word[0] ? word : `[${word[0]}${word[0]!.toUpperCase()}]${word.slice(1)}`}\\w*`;
  return new RegExp(`\\bfunction\\s*\\*?\\s*${name}\\s*\\(|\\bclass\\s+${name}\\b|\\b(?:const|let|var)\\s+${name}\\s*=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*=>|\\w+\\s*=>)|^\\s*(?:static\\s+)?(?:async\\s+)?\\*?#?${name}\\s*\\([^)]*\\)\\s*\\{`).test(line);
}

function definitionQuestion(folder: string, id: string, pasted: boolean): Workload {
  const { output, hits } = ripgrepHits(folder, 'retry');
  const definitions = hits.filter((hit) => definesWord(hit.text, 'retry'));
  const question = 'Where is retry defined, not just used?';
  const command = `rg -n -C1 retry ${folder} -g '*.js'`;
  return {
    id,
    category: 'code search, diffs, multi-file',
    pattern: `${hits.length} hits of \`rg -n -C1 retry\` ${pasted ? 'pasted under' : 'returned for'} "where is it defined?"`,
    question,
    body: pasted
      ? { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content: `${question}\n\n$ ${command}\n${output}` }] }
      : freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: [...new Set(definitions.map((hit) => hit.text.trim().slice(0, 100)))],
    source: `\`${command}\` over the installed package (the lockfile pins its version), printed as ripgrep prints piped output; facts: every hit that defines a function, method or class named with "retry"`,
  };
}

/** Several whole files an agent printed, read in one turn: one `head` call over all of them (`==> path <==` headers). */
function filesInOneRead(instance: string, files: readonly { messageIndex: number; path: string }[], question: string, id: string, pasted: boolean): Workload {
  const sources = files.map(({ messageIndex, path: file }) => ({ path: file, text: observationOutput(instance, messageIndex) }));
  const command = `head -n 2000 ${files.map((file) => file.path).join(' ')}`;
  const output = sources.map((entry) => `==> ${entry.path} <==\n${entry.text}`).join('\n\n');
  return {
    id,
    category: 'code search, diffs, multi-file',
    pattern: `${sources.length} whole source files read in one turn${pasted ? ', pasted' : ''}`,
    question,
    body: pasted
      ? { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content: `${question}\n\n${sources.map((entry) => `File: ${entry.path}\n\`\`\`python\n${entry.text}\n\`\`\``).join('\n\n')}` }] }
      : freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: submissionFacts(instance, sources),
    source: `the files ${instance}'s agent printed with cat (${files.map((file) => file.path).join(', ')}); facts: the submission's hunk context and the definition each hunk changes`,
  };
}

export function heldOutCodeWorkloads(): Workload[] {
  return [
    definitionQuestion('node_modules/@anthropic-ai/sdk', 'held-rg-retry-defined-pasted', true),
    definitionQuestion('node_modules/undici/lib', 'held-rg-retry-defined-tool', false),
    filesInOneRead('django__django-14011', [{ messageIndex: 11, path: 'django/core/servers/basehttp.py' }, { messageIndex: 47, path: 'tests/servers/test_liveserverthread.py' }], 'LiveServerTestCase\'s ThreadedWSGIServer does not close database connections after each thread. Where should they be closed?', 'held-files-one-read-tool', false),
    filesInOneRead('django__django-13344', [{ messageIndex: 7, path: 'django/utils/deprecation.py' }, { messageIndex: 65, path: 'django/contrib/sessions/middleware.py' }], 'With ASGI the first middleware\'s process_response() gets a coroutine instead of an HttpResponse. Where is that decided?', 'held-files-pasted-headers', true),
  ];
}

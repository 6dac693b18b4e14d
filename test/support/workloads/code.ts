/**
 * Code workloads from the agent trajectories and CoSQA: grep hits, a diff to review, source files
 * pasted under a question, code-search candidates, and a long session's last request. Facts come
 * from the trajectories' submissions (the files and functions that mattered), the hits themselves
 * and CoSQA's labels.
 */
import { candidatesFor, loadCosqa } from '../cosqa';
import { loadTrajectory, trajectoryNames, turnRequests } from '../sharedData';
import type { Workload } from './types';
import { CHAT_SYSTEM, fencedUnder, freshToolResult, MODEL } from './shape';

/** What an agent's observation message printed: the `<output>` (or `<output_head>`) body. */
export function observationOutput(instance: string, messageIndex: number): string {
  const content = loadTrajectory(instance).messages[messageIndex]!.content;
  const match = /<output(?:_head)?>\n?([\s\S]*?)\n?<\/output(?:_head)?>/.exec(content);
  return match?.[1] ?? content;
}

/** The command of the assistant message before an observation. */
function commandBefore(instance: string, messageIndex: number): string {
  const content = loadTrajectory(instance).messages[messageIndex - 1]!.content;
  return [...content.matchAll(/```(?:bash)?\n([\s\S]*?)```/g)].pop()?.[1]?.trim() ?? '';
}

function grepHits(instance: string, messageIndex: number, id: string, question: string): Workload {
  const output = observationOutput(instance, messageIndex);
  const files = [...new Set([...output.matchAll(/^([^:\s]+\.\w+):/gm)].map((match) => match[1]!))];
  const command = commandBefore(instance, messageIndex);
  return {
    id,
    category: 'code search, diffs, multi-file',
    pattern: `${output.split('\n').length} grep hits returned by a command`,
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, output),
    facts: files,
    source: `the output of \`${command}\` in ${instance} (message ${messageIndex}); facts: every file the hits are in`,
  };
}

/** The largest submission diff of the trajectories, pasted for review. */
function diffReview(): Workload {
  let instance = '';
  let diff = '';
  for (const name of trajectoryNames()) {
    const submission = loadTrajectory(name).submission;
    if (submission.length > diff.length) {
      diff = submission;
      instance = name;
    }
  }
  const files = [...diff.matchAll(/^\+\+\+ b\/(\S+)/gm)].map((match) => match[1]!);
  const removed = [...diff.matchAll(/^-(?!--)(.*\S.*)$/gm)].map((match) => match[1]!.trim()).filter((line) => line.length >= 12);
  const question = 'Please review this diff before I merge it. Is there any risky change?';
  return {
    id: 'git-diff-review',
    category: 'code search, diffs, multi-file',
    pattern: 'a git diff and "any risky change?"',
    question,
    body: fencedUnder(question, diff.replace(/\n$/, ''), 'diff'),
    facts: [...new Set([...files, ...removed])],
    source: `the largest submission diff of the trajectories (${instance}); facts: every changed file and every removed line`,
  };
}

/**
 * Source files an agent read, pasted under its task's question. Facts: the submission's hunk
 * headers and the function each changed line is in, as the pasted files show it.
 */
/** How a pasted file's name sits above its code: `path:` over a fence, the path in the fence's info string, or `tail -n +1`'s unfenced `==> path <==` banners. */
type PasteLayout = 'colon' | 'fence-info' | 'tail-banners';

const LAYOUTS: Readonly<Record<PasteLayout, { render: (path: string, text: string) => string; pattern: string }>> = {
  colon: { render: (path, text) => `${path}:\n\`\`\`python\n${text}\n\`\`\``, pattern: 'source files pasted under a question' },
  'fence-info': { render: (path, text) => `\`\`\`python ${path}\n${text}\n\`\`\``, pattern: 'source files pasted in fences that name them, the question after' },
  'tail-banners': { render: (path, text) => `==> ${path} <==\n${text}`, pattern: 'source files pasted as `tail -n +1` prints them (unfenced), under a question' },
};

function pastedSources(instance: string, files: readonly { messageIndex: number; path: string }[], question: string, id: string, layout: PasteLayout = 'colon'): Workload {
  const sources = files.map(({ messageIndex, path }) => ({ path, text: observationOutput(instance, messageIndex) }));
  const facts = submissionFacts(instance, sources);
  const { render, pattern } = LAYOUTS[layout];
  const body = sources.map((entry) => render(entry.path, entry.text)).join('\n\n');
  const content = layout === 'fence-info' ? `${body}\n\n${question}` : `${question}\n\n${body}`;
  return {
    id,
    category: 'code search, diffs, multi-file',
    pattern: `${sources.length} ${pattern}`,
    question,
    body: { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content }] },
    facts,
    source: `the files ${instance}'s agent printed with cat (${files.map((file) => file.path).join(', ')}); facts: the submission's hunk context and the definition each hunk changes`,
  };
}

/** What a submission changes in the given sources: each hunk's context line and the definition each changed line is in. */
export function submissionFacts(instance: string, sources: readonly { path: string; text: string }[]): string[] {
  const trajectory = loadTrajectory(instance);
  const facts = new Set<string>();
  for (const hunk of trajectory.submission.matchAll(/^\+\+\+ b\/(\S+)\n((?:(?!\+\+\+ )[\s\S])*)/gm)) {
    const source = sources.find((entry) => entry.path === hunk[1]);
    if (source === undefined) continue;
    const lines = source.text.split('\n');
    for (const header of hunk[2]!.matchAll(/^@@ -(\d+),?\d* \+\d+,?\d* @@ ?(.*)$/gm)) {
      if (header[2]!.trim().length > 0) facts.add(header[2]!.trim());
      for (let line = Math.min(Number(header[1]) + 2, lines.length - 1); line >= 0; line--) {
        const definition = /^\s*((?:async )?def \w+\(|class \w+)/.exec(lines[line]!);
        if (definition !== null) {
          facts.add(definition[1]!);
          break;
        }
      }
    }
  }
  return [...facts];
}

function codeSearch(queryIndex: number): Workload {
  const cosqa = loadCosqa();
  const query = cosqa.queries[queryIndex]!;
  const candidates = candidatesFor(cosqa, queryIndex);
  const question = `Which of these functions answers "${query.query}"?`;
  const listing = candidates.map((candidate, index) => `### Candidate ${index + 1}\n\`\`\`python\n${candidate.content}\n\`\`\``).join('\n\n');
  const answer = cosqa.corpus[query.answer]!;
  return {
    id: `cosqa-candidates-${queryIndex}`,
    category: 'code search, diffs, multi-file',
    pattern: '20 code-search candidates pasted under a query',
    question,
    body: { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content: `${question}\n\n${listing}` }] },
    facts: [answer.split('\n')[0]!.trim()],
    source: `CoSQA dev query ${queryIndex} with its labelled function among 19 deterministic distractors (test/support/cosqa.ts); fact: the labelled function's signature line`,
  };
}

/** The last request of the longest trajectory, sent cold (no earlier turn seen). */
function staleTrajectory(): Workload {
  let instance = '';
  let longest = 0;
  for (const name of trajectoryNames()) {
    const count = loadTrajectory(name).messages.length;
    if (count > longest) {
      longest = count;
      instance = name;
    }
  }
  const trajectory = loadTrajectory(instance);
  const requests = turnRequests(trajectory);
  const body = requests[requests.length - 1]!;
  const text = JSON.stringify(body.messages);
  const files = [...trajectory.submission.matchAll(/^\+\+\+ b\/(\S+)/gm)].map((match) => match[1]!).filter((path) => text.includes(path));
  return {
    id: 'stale-trajectory',
    category: 'code search, diffs, multi-file',
    pattern: `a ${body.messages.length}-message agent session's last request, cold`,
    question: 'the agent\'s task (first user message)',
    body,
    facts: files,
    source: `the last request of the longest trajectory (${instance}); facts: the files its submission changes`,
  };
}

export function codeWorkloads(): Workload[] {
  return [
    grepHits('django__django-11119', 45, 'grep-hits-by-file', 'Which test files call render_to_string?'),
    grepHits('django__django-12143', 35, 'grep-list-editable', 'Where do the tests use list_editable?'),
    diffReview(),
    pastedSources('django__django-15252', [{ messageIndex: 5, path: 'django/db/migrations/recorder.py' }, { messageIndex: 13, path: 'django/db/utils.py' }], 'MigrationRecorder does not obey the db_router allow_migrate rules. Where in these files should the check go?', 'pasted-sources-recorder'),
    pastedSources('django__django-12193', [{ messageIndex: 7, path: 'django/contrib/postgres/forms/array.py' }, { messageIndex: 33, path: 'tests/postgres_tests/test_array.py' }, { messageIndex: 35, path: 'tests/postgres_tests/__init__.py' }], 'SplitArrayField with BooleanField always has widgets checked after the first True value. Where is the bug?', 'pasted-sources-split-array'),
    pastedSources('django__django-13279', [{ messageIndex: 7, path: 'django/contrib/sessions/backends/base.py' }, { messageIndex: 31, path: 'django/contrib/sessions/backends/signed_cookies.py' }, { messageIndex: 33, path: 'django/contrib/sessions/backends/db.py' }], 'Session data cannot be decoded during the transition to Django 3.1 when DEFAULT_HASHING_ALGORITHM is sha1. Where is session data encoded and decoded, and where would the legacy format go?', 'pasted-sources-sessions-fence-info', 'fence-info'),
    pastedSources('astropy__astropy-14182', [{ messageIndex: 9, path: 'astropy/io/ascii/rst.py' }, { messageIndex: 11, path: 'astropy/io/ascii/fixedwidth.py' }, { messageIndex: 17, path: 'astropy/io/ascii/basic.py' }], 'Writing a table with format="ascii.rst" and header_rows=["name", "unit"] fails with an unexpected keyword argument. Which writer class has to accept header_rows, and how does the fixed-width writer handle them?', 'pasted-sources-rst-banners', 'tail-banners'),
    codeSearch(3),
    codeSearch(17),
    staleTrajectory(),
  ];
}

import { strict as assert } from 'node:assert';
import { parseRequest } from '../../chat';
import type { ChatRequest, ToolDefinition } from '../../chat/types';
import { findMarkers } from '../../stash/marker';
import { pipelineOf } from '../../../../test/support/agentFixtures';
import { createToolCatalog, TOOL_CATALOG_ID } from '../toolCatalog';
import { topLevelSections } from './descriptionSections';

/** A shell tool described the way Claude Code describes its Bash: how to use it, then whole procedures under their own headings. */
const procedure = (steps: string) => Array.from({ length: 14 }, (_, index) => `- Step ${index + 1}: ${steps} carefully, and report what you saw before going on.`).join('\n');
const SHELL = [
  'Executes a given shell command and returns its output.',
  '',
  '# Instructions',
  procedure('quote paths with spaces and keep the working directory'),
  '',
  '# Committing changes with git',
  'Only create commits when requested by the user.',
  '```',
  '# not a heading: a comment inside a fenced example',
  'git commit -m "message"',
  '```',
  procedure('stage the files by name, never amend, never skip hooks'),
  '',
  '# Creating pull requests',
  procedure('push the branch to its remote and open the PR with gh'),
].join('\n');

const TOOLS: ToolDefinition[] = [
  { name: 'Shell', description: SHELL, inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'Read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } } },
];

const ask = (words: string): ChatRequest => ({ ...parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: words }] }), tools: TOOLS });

async function shellAfter(words: string, options: Record<string, unknown> = {}) {
  const setup = pipelineOf([createToolCatalog()], { [TOOL_CATALOG_ID]: options });
  const first = await setup.pipeline.run(ask(words), { sessionId: 's1', windowTokens: 128_000, targetKind: 'endpoint' });
  const next = await setup.pipeline.run({ ...ask(words), messages: [...ask(words).messages, { role: 'assistant', parts: [{ type: 'text', text: 'Looking.' }], contentShape: 'parts' }, { role: 'user', parts: [{ type: 'text', text: 'And commit it.' }], contentShape: 'parts' }] }, { sessionId: 's1', windowTokens: 128_000, targetKind: 'endpoint' });
  const shell = (request: ChatRequest) => request.tools.find((tool) => tool.name === 'Shell')!.description ?? '';
  return { first: shell(first.request), next: shell(next.request), stash: setup.stash };
}

describe('tool_catalog: description sections', () => {
  it('finds top-level sections outside fenced code only', () => {
    assert.deepEqual(topLevelSections(SHELL).map((section) => section.heading), ['Instructions', 'Committing changes with git', 'Creating pull requests']);
  });

  it('stashes the sections whose subject the conversation has not raised, keeps how to use the tool, and gives them back byte for byte', async () => {
    const { first, stash } = await shellAfter('Summarise the build warnings in logs/build.log.');
    assert.ok(first.includes('# Instructions') && first.includes('quote paths with spaces'), 'how to use the tool stays');
    assert.ok(!first.includes('never amend') && !first.includes('open the PR with gh'), 'the git and pull-request procedures are out');
    const markers = findMarkers(first);
    assert.equal(markers.length, 1);
    const original = await stash.retrieve(markers[0]!.handle);
    assert.ok(original?.startsWith('# Committing changes with git\n'));
    const kept = first.slice(0, markers[0]!.start).trimEnd();
    assert.equal(SHELL.slice(0, SHELL.length - original!.length).trimEnd(), kept, 'what is kept and what is stashed make up the whole description');
    assert.ok(SHELL.endsWith(original!));
  });

  it('keeps a section the conversation is about, and the same description on every request of the session', async () => {
    const { first, next } = await shellAfter('Fix the typo in README.md and commit the change.');
    assert.ok(first.includes('never amend'), '"commit" keeps the git section');
    assert.ok(!first.includes('open the PR with gh'), 'the pull-request section still goes');
    assert.equal(next, first, 'decided once per session: a later "commit" does not change the tools block');
    const untouched = await shellAfter('Summarise the build warnings.', { sectionMinChars: 0 });
    assert.equal(untouched.first, SHELL, 'sectionMinChars 0 keeps every section');
  });
});

import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import type { ChatRequest } from '../chat/types';
import { expandRequest, sitesFrom } from '../pipeline';
import { findMarkers } from '../stash/marker';
import { expandsBack, replay } from '../../../test/support/replay';
import { skipWithoutData, loadTrajectory, turnRequests } from '../../../test/support/sharedData';
import { sessionsOf, type ClientSession } from '../../../test/support/clients';
import type { ChatRequest as Request } from '../chat/types';
import { createEditMask, EDIT_MASK_ID } from './editMask';
import { pipelineOf } from '../../../test/support/agentFixtures';

const SOURCE = Array.from({ length: 40 }, (_, index) => `def handler_${index}(event):\n    return process(event, retries=${index})`).join('\n');

/** An OpenAI (Copilot-shaped) request in which a call is history and its result the fresh input. */
function openAICall(name: string, args: Record<string, unknown> | string, result: string): Record<string, unknown> {
  return {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Write the handlers.' },
      { role: 'assistant', content: 'Writing them.', tool_calls: [{ id: 'c1', type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }] },
      { role: 'tool', tool_call_id: 'c1', content: result },
    ],
  };
}

/** The same in Anthropic's format (object arguments, is_error on the result). */
function anthropicCall(name: string, input: Record<string, unknown>, result: string, isError = false): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: 'You are a coding agent.',
    messages: [
      { role: 'user', content: 'Write the handlers.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Writing them.' }, { type: 'tool_use', id: 'toolu_1', name, input }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: result, ...(isError ? { is_error: true } : {}) }] },
    ],
  };
}

async function runOnce(body: unknown, options: Record<string, unknown> = {}) {
  const setup = pipelineOf([createEditMask()], { [EDIT_MASK_ID]: options });
  const request = parseRequest(body);
  const result = await setup.pipeline.run(request);
  return { ...setup, request, result };
}

/** The arguments of the request's first tool call. */
function callArguments(request: ChatRequest): unknown {
  for (const message of request.messages) for (const part of message.parts) if (part.type === 'tool_call') return part.arguments;
  return undefined;
}

describe('edit_mask', () => {
  it('leaves out of the names line a name another message shows, however long that message, and keeps one nobody shows', async () => {
    // Long texts are first checked by their trigrams: a name inside one must still be found.
    const longOutput = `${'lorem ipsum dolor — ünïcødé 😀 '.repeat(200)}handler_7 is wired; ${'x'.repeat(3_000)} and handler_33(`;
    const body = openAICall('create_file', { filePath: '/src/app/handlers.py', content: SOURCE }, 'The following files were successfully edited:\n/src/app/handlers.py\n');
    const messages = body.messages as unknown[];
    messages.splice(2, 0, { role: 'user', content: longOutput });
    const { result } = await runOnce(body);
    const masked = JSON.parse(callArguments(result.request) as string) as { content: string };
    const line = /\nnames: ([^\n]+)/.exec(masked.content)?.[1] ?? '';
    const names = line.split(', ');
    assert.ok(names.includes('handler_6') && names.includes('handler_8'), line);
    assert.ok(!names.includes('handler_7') && !names.includes('handler_33'), line);
  });

  it('fills the names line in the order the content names them, skipping shown ones, and cuts it at 600 characters with an ellipsis', async () => {
    const many = Array.from({ length: 300 }, (_, index) => `def handler_${index}(event):\n    return process(event)`).join('\n');
    const body = openAICall('create_file', { filePath: '/src/app/many.py', content: many }, 'The following files were successfully edited:\n/src/app/many.py\n');
    (body.messages as unknown[]).splice(2, 0, { role: 'user', content: 'handler_1 and handler_3( are known already' });
    const { result } = await runOnce(body);
    const masked = JSON.parse(callArguments(result.request) as string) as { content: string };
    const line = /\nnames: ([^\n]+)/.exec(masked.content)?.[1] ?? '';
    assert.ok(line.endsWith(', …') && line.length <= 600 + 3, line);
    const names = line.slice(0, -3).split(', ');
    // In the content's order, each once (the call `process(` too), with the two shown elsewhere left out.
    const expected = ['handler_0', 'process', 'handler_2', ...Array.from({ length: 296 }, (_, index) => `handler_${index + 4}`)];
    assert.deepEqual(names, expected.slice(0, names.length));
    assert.ok(names.length > 40, `${names.length} names`);
    const next = expected[names.length]!;
    assert.ok(line.slice(0, -3).length + next.length + 2 > 600, 'the next name would not have fit');
  });

  it("masks a confirmed Copilot create_file's content: valid JSON, same keys, path kept, expands back byte for byte", async () => {
    const args = `{"filePath": "c:\\\\src\\\\app\\\\handlers.py", "content": ${JSON.stringify(SOURCE)}}`;
    const { request, result, stash } = await runOnce(openAICall('create_file', args, 'The following files were successfully edited:\nc:\\src\\app\\handlers.py\n'));
    assert.equal(result.decisions[0]!.action, 'edit-content-masked');
    const masked = callArguments(result.request) as string;
    const parsed = JSON.parse(masked) as { filePath: string; content: string };
    assert.deepEqual(Object.keys(parsed), ['filePath', 'content']);
    assert.equal(parsed.filePath, 'c:\\src\\app\\handlers.py');
    assert.ok(masked.startsWith('{"filePath": "c:\\\\src\\\\app\\\\handlers.py", "content": "[herald: content written to'), 'every other byte as the model wrote it');
    const [marker] = findMarkers(parsed.content);
    assert.match(marker!.summary, /content written to c:\\src\\app\\handlers\.py, 80 lines; first line "def handler_0\(event\):"/);
    assert.equal(await stash.retrieve(marker!.handle), SOURCE);
    // The names the content introduced stay in view.
    assert.match(parsed.content, /\nnames: handler_0, .*handler_39/);
    const expanded = await expandRequest(result.request, stash, sitesFrom(result.elisions));
    assert.equal(callArguments(expanded), args);
    assert.ok(await expandsBack(request, parseRequest(JSON.parse(JSON.stringify(serializeRequest(result.request)))), stash, result.elisions));
  });

  it('masks both sides of a replace and every edit of a Claude Code MultiEdit (object arguments)', async () => {
    const before = SOURCE.slice(0, 1200);
    const after = before.replace(/retries/g, 'attempts');
    const edit = await runOnce(anthropicCall('Edit', { file_path: '/repo/handlers.py', old_string: before, new_string: after, replace_all: false }, 'The file /repo/handlers.py has been updated successfully.'));
    const input = callArguments(edit.result.request) as Record<string, unknown>;
    assert.deepEqual(Object.keys(input), ['file_path', 'old_string', 'new_string', 'replace_all']);
    assert.equal(input.replace_all, false);
    assert.match(String(input.old_string), /^\[herald: text replaced in \/repo\/handlers\.py, \d+ lines/);
    assert.match(String(input.new_string), /^\[herald: replacement text for \/repo\/handlers\.py/);
    const expanded = await expandRequest(edit.result.request, edit.stash, sitesFrom(edit.result.elisions));
    assert.deepEqual(callArguments(expanded), { file_path: '/repo/handlers.py', old_string: before, new_string: after, replace_all: false });

    const multi = await runOnce(anthropicCall('MultiEdit', { file_path: '/repo/a.py', edits: [{ old_string: before, new_string: after }, { old_string: 'x = 1', new_string: 'x = 2' }] }, 'Applied 2 edits to /repo/a.py:\n1. Replaced "def handler_0"…'));
    const edits = (callArguments(multi.result.request) as { edits: { old_string: string; new_string: string }[] }).edits;
    assert.match(edits[0]!.old_string, /^\[herald: text replaced in \/repo\/a\.py/);
    assert.equal(edits[1]!.old_string, 'x = 1', 'a small edit is not worth a marker');
  });

  it('keeps the content when the result does not confirm the write', async () => {
    const args = { filePath: '/repo/handlers.py', content: SOURCE };
    for (const result of ['ERROR: Your input to the tool was invalid', 'String replacement failed: Could not find matching text to replace.', 'The following files were successfully edited:\n/repo/a.py\nThe edit resulted in the following lint errors: …', '']) {
      const run = await runOnce(openAICall('create_file', args, result));
      assert.equal(run.result.request, run.request, `kept after: ${JSON.stringify(result)}`);
    }
    const flagged = await runOnce(anthropicCall('Write', { file_path: '/repo/h.py', content: SOURCE }, 'File created successfully at: /repo/h.py', true));
    assert.equal(flagged.result.request, flagged.request, 'an is_error result');
    assert.match(flagged.result.decisions[0]!.reason, /1 write\(s\) not confirmed/);
    // Claude Code quotes the edited lines back: code words in them ("raise ValueError") are not a failure.
    const quoted = await runOnce(anthropicCall('Write', { file_path: '/repo/h.py', content: SOURCE }, "The file /repo/h.py has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n    14→    raise ValueError('bad')"));
    assert.notEqual(quoted.result.request, quoted.request);
  });

  it('masks only the body of a here-document in a shell command, and only when the command succeeded', async () => {
    const command = `cat <<'EOF' > reproduce.py\n${SOURCE}\nEOF\npython reproduce.py`;
    const ok = await runOnce(anthropicCall('Bash', { command, description: 'write and run' }, 'all good'));
    const masked = String((callArguments(ok.result.request) as { command: string }).command);
    assert.match(masked, /^cat <<'EOF' > reproduce\.py\n\[herald: here-document written to reproduce\.py, 80 lines; first line "def handler_0\(event\):" · retrieve hr_[a-z2-7]{16}\]\nnames: [^\n]+\nEOF\npython reproduce\.py$/);
    const failed = await runOnce(anthropicCall('Bash', { command }, 'Exit code 1\nTraceback…', true));
    assert.equal(failed.result.request, failed.request);
    const noSpace = await runOnce(openAICall('run_in_terminal', { command, explanation: 'x', isBackground: false }, 'bash: reproduce.py: Permission denied'));
    assert.equal(noSpace.result.request, noSpace.request);
    const script = await runOnce(openAICall('run_in_terminal', { command: `python - <<'EOF'\n${SOURCE}\nEOF` }, 'ok'));
    assert.equal(script.result.request, script.request, 'a script fed to python is not a file on disk');
  });

  it('summarises an apply_patch and leaves a value written with optional escapes as it is', async () => {
    const patch = `*** Begin Patch\n*** Update File: /repo/a.py\n@@\n-${SOURCE.split('\n').slice(0, 20).join('\n-')}\n+${SOURCE.split('\n').slice(0, 24).join('\n+')}\n*** End Patch`;
    const run = await runOnce(openAICall('apply_patch', { input: patch, explanation: 'rename' }, 'The following files were successfully edited:\n/repo/a.py\n'));
    assert.match(String(JSON.parse(callArguments(run.result.request) as string).input), /^\[herald: patch to \/repo\/a\.py: \+24 −20 lines/);
    const escaped = `{"filePath":"/repo/a.py","content":${JSON.stringify(SOURCE).replace(/e/g, '\\u0065')}}`;
    const kept = await runOnce(openAICall('create_file', escaped, 'The following files were successfully edited:\n/repo/a.py\n'));
    assert.equal(kept.result.request, kept.request);
  });

  it('is decided once: the next turn replays the masked call byte for byte', async () => {
    const first = openAICall('create_file', { filePath: '/repo/h.py', content: SOURCE }, 'The following files were successfully edited:\n/repo/h.py\n');
    const second = { ...first, messages: [...(first.messages as unknown[]), { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Now run it.' }] };
    const { pipeline, stash, tokens } = pipelineOf([createEditMask()]);
    const summary = await replay(pipeline, stash, [first, second], tokens);
    assert.equal(summary.prefixStableTurns, 2);
    assert.equal(summary.losslessTurns, 2);
    assert.equal(JSON.stringify(summary.turns[1]!.optimized.messages[2]), JSON.stringify(summary.turns[0]!.optimized.messages[2]));
  });

  it("masks the here-documents of a real mini-swe-agent session's text commands, stably and losslessly", async function () {
    skipWithoutData(this);
    const bodies = turnRequests(loadTrajectory('astropy__astropy-12907'));
    const { pipeline, stash, tokens } = pipelineOf([createEditMask()]);
    const summary = await replay(pipeline, stash, bodies, tokens);
    assert.equal(summary.prefixStableTurns, bodies.length);
    assert.equal(summary.losslessTurns, bodies.length);
    const last = summary.turns[summary.turns.length - 1]!.optimized;
    const texts = last.messages.map((message) => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''));
    const masked = texts.filter((text) => /<<'EOF' >>? [^\n]+\n\[herald: here-document (?:written|appended) to /.test(text));
    assert.ok(masked.length >= 2, `several heredoc writes masked (${masked.length})`);
    assert.ok(summary.tokensAfter < summary.tokensBefore);
    // Each masked command still names its file and its terminator.
    for (const text of masked) assert.match(text, /\nEOF\n/);
  });

  /** Replays a client session through edit_mask alone: how many call values it masked on the last request, and whether every request expanded back at its sites. */
  async function replayClient(session: ClientSession): Promise<{ masked: number; lossless: number; requests: number; last: Request }> {
    const { pipeline, stash } = pipelineOf([createEditMask()]);
    let lossless = 0;
    let last: Request | undefined;
    for (const entry of session.requests) {
      const result = await pipeline.run(entry.request);
      last = session.roundTrip(result.request);
      if (await expandsBack(entry.request, last, stash, result.elisions)) lossless++;
    }
    const masked = last!.messages.flatMap((message) => message.parts).filter((part) => part.type === 'tool_call' && JSON.stringify(part.arguments).includes('[herald: ')).length;
    return { masked, lossless, requests: session.requests.length, last: last! };
  }

  it("masks the confirmed writes of real Claude Code sessions (Write, Edit) and every request expands back", async function () {
    skipWithoutData(this);
    // The first 60 replies of a long real session keep the test quick and hold several writes.
    const whole = sessionsOf('claude-code-long', 1)[0]!;
    const session = { ...whole, requests: whole.requests.slice(0, 60) };
    const { masked, lossless, requests, last } = await replayClient(session);
    assert.equal(lossless, requests);
    assert.ok(masked >= 3, `confirmed writes masked (${masked})`);
    // Every masked call keeps its keys; a masked Edit still says which file it changed.
    for (const part of last.messages.flatMap((message) => message.parts)) {
      if (part.type !== 'tool_call' || !JSON.stringify(part.arguments).includes('[herald: ')) continue;
      assert.ok(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash'].includes(part.name), part.name);
      const input = part.arguments as Record<string, unknown>;
      if (part.name !== 'Bash') assert.equal(typeof (input.file_path ?? input.notebook_path), 'string');
    }
  });

  it("masks the edit calls of Copilot-shaped sessions (create_file, replace_string_in_file, apply_patch, insert_edit_into_file)", async function () {
    skipWithoutData(this);
    const names = new Set<string>();
    for (const session of sessionsOf('copilot-shaped', 4)) {
      const { lossless, requests, last } = await replayClient(session);
      assert.equal(lossless, requests);
      for (const part of last.messages.flatMap((message) => message.parts)) if (part.type === 'tool_call' && JSON.stringify(part.arguments).includes('[herald: ')) names.add(part.name);
    }
    assert.ok(names.size >= 2, `several edit tools masked: ${[...names].join(', ')}`);
  });
});

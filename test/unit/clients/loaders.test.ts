import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { partText } from '../../../src/core/chat/types';
import { describeWithData, loadTrajectory, trajectoryNames } from '../../support/sharedData';
import {
  CACHE_CONTROL_MIME,
  claudeCodeSpotterMainFiles,
  copilotShapedSession,
  loadClaudeCodeSession,
  loadCopilotExport,
  readCopilotExport,
  STATEFUL_MARKER_MIME,
  SUMMARY_PROMPT,
  type ClientSession,
} from '../../support/clients';
import { withCopilotBreakpoints } from '../../support/clients/copilotBreakpoints';
import { RAW_PART } from '../../support/clients/copilotRaw';
import { stepsOf } from '../../support/clients/trajectorySteps';

const json = (value: unknown): string => JSON.stringify(value);

/** Data parts of one MIME type in a message, tool-result content included. */
function dataParts(message: ChatMessage, mime: string): number {
  let count = 0;
  for (const part of message.parts) {
    if (part.type === 'data' && part.mimeType === mime) count++;
    if (part.type === 'tool_result') count += part.content.filter((inner) => inner.type === 'data' && inner.mimeType === mime).length;
  }
  return count;
}

function toolCalls(message: ChatMessage): string[] {
  return message.parts.flatMap((part) => (part.type === 'tool_call' ? [part.id] : []));
}

function toolResults(message: ChatMessage): string[] {
  return message.parts.flatMap((part) => (part.type === 'tool_result' ? [part.callId] : []));
}

/** Every tool call is answered, in order, by the results in the messages right after it. */
function assertCallsAnswered(request: ChatRequest): void {
  request.messages.forEach((message, index) => {
    const calls = toolCalls(message);
    if (calls.length === 0) return;
    const answered: string[] = [];
    for (let next = index + 1; next < request.messages.length && request.messages[next]!.role !== 'assistant'; next++) answered.push(...toolResults(request.messages[next]!));
    if (index + 1 < request.messages.length) assert.deepEqual(answered, calls, `calls of message ${index} answered`);
  });
}

describeWithData('client traffic loaders (shared data)', () => {
  describe('Copilot chat-replay export', () => {
    let session: ClientSession;
    before(() => {
      session = loadCopilotExport();
    });

    it('reads every request Copilot sent, each conversation continuing the one before', () => {
      assert.equal(session.requests.length, 4);
      assert.deepEqual(session.requests.map((entry) => entry.request.messages.length), [3, 5, 7, 9]);
      for (const entry of session.requests) {
        assert.equal(entry.request.format, 'vscode');
        assert.equal(entry.request.tools.length, 69);
        assert.deepEqual(entry.request.tools.map((tool) => tool.inputSchema), readCopilotExport()[0]!.tools.map((tool) => tool.function.parameters), 'every tool with its schema');
        assertCallsAnswered(entry.request);
      }
      // The user's words are in the context message, as Copilot wrote them.
      assert.match(partText(session.requests[0]!.request.messages[2]!.parts[0]!), /<userRequest>\ncreate a file that says \n"hello"\n<\/userRequest>/);
    });

    it('knows which tools each reply called, and they match the calls in the next request', () => {
      assert.deepEqual(session.requests.map((entry) => entry.calledTools), [['create_file'], [], ['replace_string_in_file'], []]);
      session.requests.forEach((entry, index) => {
        const next = session.requests[index + 1];
        if (!next) return;
        const reply = next.request.messages[entry.request.messages.length]!;
        assert.deepEqual(reply.parts.flatMap((part) => (part.type === 'tool_call' ? [part.name] : [])), entry.calledTools);
        assert.deepEqual(entry.reply, reply);
      });
    });

    it('carries cache breakpoints as cache_control data parts, also inside tool results, and they move between requests', () => {
      const [, second, , fourth] = session.requests.map((entry) => entry.request);
      assert.equal(dataParts(second!.messages[0]!, CACHE_CONTROL_MIME), 1, 'the system prompt has one in the second request');
      const toolMessage = second!.messages[4]!;
      const result = toolMessage.parts[0]!;
      assert.ok(result.type === 'tool_result' && result.content.some((inner) => inner.type === 'data' && inner.mimeType === CACHE_CONTROL_MIME), 'the breakpoint rides inside the tool result');
      assert.equal(Buffer.from((result.content.find((inner) => inner.type === 'data') as { data: string }).data, 'base64').toString(), 'ephemeral');
      assert.equal(dataParts(fourth!.messages[4]!, CACHE_CONTROL_MIME), 0, 'and is gone from the same tool result two requests later');
    });

    it('sees the system prompt change between prompts (the model changed too)', () => {
      const systems = session.requests.map((entry) => partText(entry.request.messages[0]!.parts[0]!));
      assert.equal(systems[0], systems[1]);
      assert.notEqual(systems[1], systems[2]);
      assert.match(systems[2]!, /Claude Sonnet 4\.5/);
    });

    it('round-trips through the Language Model API unchanged', () => {
      for (const entry of session.requests) assert.equal(json(session.roundTrip(entry.request)), json(entry.request));
    });

    it('reproduces Copilot\'s breakpoint rule: from the environment message\'s own breakpoint, the export\'s placement', () => {
      // The third request (a new prompt's first) also keeps one the prompt itself put on the earlier turn's last tool result.
      for (const entry of readCopilotExport().filter((_, index) => index !== 2)) {
        const stripped = entry.messages.map((message, index) => ({
          ...message,
          content: message.content.filter((part) => part.type !== RAW_PART.cacheBreakpoint || index === 1),
        }));
        const placed = withCopilotBreakpoints(stripped);
        assert.deepEqual(placed.map((message) => message.content.filter((part) => part.type === RAW_PART.cacheBreakpoint).length), entry.messages.map((message) => message.content.filter((part) => part.type === RAW_PART.cacheBreakpoint).length));
      }
    });
  });

  describe('Claude Code sessions', () => {
    let session: ClientSession;
    before(() => {
      session = loadClaudeCodeSession(claudeCodeSpotterMainFiles().find((name) => name.includes('258c7280'))!);
    });

    it('makes one request per reply (152 distinct message ids) and one for the compaction summary', () => {
      assert.equal(session.requests.length, 153);
      const summaries = session.requests.filter((entry) => entry.summarization);
      assert.equal(summaries.length, 1);
      assert.deepEqual(summaries[0]!.calledTools, []);
      assert.match(partText(summaries[0]!.request.messages.at(-1)!.parts.at(-1)!), /create a detailed summary of the conversation/);
    });

    it('each request is the one before plus the previous reply and what followed, until the compaction starts again from the summary', () => {
      let restarts = 0;
      const main = session.requests.filter((entry) => !entry.summarization);
      main.forEach((entry, index) => {
        const previous = main[index - 1];
        if (!previous) return;
        const before = previous.request.messages;
        const now = entry.request.messages;
        // The previous last message loses its sliding breakpoint and may grow (more tool results in the same user message).
        const strip = (message: ChatMessage): string => json(message.parts.map((part) => {
          if (!('extra' in part) || !part.extra) return part;
          const { cache_control: _hint, ...rest } = part.extra;
          return { ...part, extra: Object.keys(rest).length > 0 ? rest : undefined };
        }));
        const continues = now.length > before.length && before.slice(1, -1).every((message, at) => json(message) === json(now[at + 1]));
        if (!continues) {
          restarts++;
          assert.match(partText(now[1]!.parts[0]!), /This session is being continued from a previous conversation/);
          return;
        }
        assert.equal(strip(now[before.length - 1]!), strip(before.at(-1)!));
        assert.equal(json(now[before.length]), json(previous.reply), 'the reply comes next');
      });
      assert.equal(restarts, 1);
    });

    it('answers every tool call with its results in the next user message, and keeps the provider\'s usage', () => {
      for (const entry of session.requests) {
        assertCallsAnswered(entry.request);
        assert.ok(entry.usage && entry.usage.cacheRead + entry.usage.cacheWrite + entry.usage.input > 0);
      }
      const last = session.requests.at(-1)!.request;
      assert.equal(last.format, 'anthropic');
      assert.ok(last.tools.some((tool) => tool.name === 'Bash'));
      assert.ok(session.reconstructed.length > 0, 'says what it reconstructed');
    });

    it('puts the sliding breakpoint on the last block and round-trips the Anthropic wire unchanged', () => {
      for (const entry of session.requests.slice(0, 20)) {
        const last = entry.request.messages.at(-1)!;
        assert.ok(last.parts.some((part) => 'extra' in part && part.extra?.cache_control !== undefined));
        assert.equal(json(session.roundTrip(entry.request)), json(entry.request));
      }
    });
  });

  describe('Copilot-shaped sessions from the trajectories', () => {
    let names: string[];
    let claude: ClientSession;
    let gpt: ClientSession;
    before(() => {
      names = trajectoryNames();
      claude = copilotShapedSession(loadTrajectory(names[0]!), 0);
      gpt = copilotShapedSession(loadTrajectory(names[1]!), 1);
    });

    it('sends parallel calls: several tool results after one assistant message, every call answered', () => {
      const last = claude.requests.at(-1)!.request;
      assert.ok(last.messages.some((message) => toolCalls(message).length >= 2), 'a batch of parallel calls');
      for (const entry of [...claude.requests, ...gpt.requests]) assertCallsAnswered(entry.request);
    });

    it('offers Copilot\'s tools and GitHub MCP tools under Copilot\'s naming, and every tool a reply calls is offered', () => {
      for (const session of [claude, gpt]) {
        const tools = session.requests[0]!.request.tools.map((tool) => tool.name);
        assert.ok(tools.includes('run_in_terminal') && tools.includes('read_file'));
        assert.ok(tools.filter((name) => name.startsWith('mcp_github_')).length >= 10);
        for (const entry of session.requests) for (const name of entry.calledTools) assert.ok(tools.includes(name), `${name} offered`);
      }
      assert.ok(claude.requests.some((entry) => entry.calledTools.includes('create_file')));
      assert.ok(gpt.requests.some((entry) => entry.calledTools.includes('apply_patch')));
      assert.ok(!gpt.requests[0]!.request.tools.some((tool) => tool.name === 'replace_string_in_file'), 'GPT models get apply_patch instead');
    });

    it('changes the system prompt between the two prompts and asks for a summary between them, tools offered', () => {
      for (const session of [claude, gpt]) {
        const systems = new Set(session.requests.map((entry) => partText(entry.request.messages[0]!.parts[0]!)));
        assert.equal(systems.size, 2);
        const summaries = session.requests.filter((entry) => entry.summarization);
        assert.equal(summaries.length, 1);
        assert.equal(partText(summaries[0]!.request.messages.at(-1)!.parts[0]!), SUMMARY_PROMPT);
        assert.ok(summaries[0]!.request.tools.length > 0 && summaries[0]!.calledTools.length === 0);
      }
    });

    it('gives the tools the trajectory\'s real outputs, thinking parts its reasoning, and GPT messages stateful markers', () => {
      const steps = stepsOf(loadTrajectory(names[0]!));
      const results = claude.requests.at(-1)!.request.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool_result' ? [partText(part)] : [])));
      const outputs = new Set(steps.map((step) => step.output));
      assert.ok(results.filter((text) => outputs.has(text)).length >= results.length / 2, 'most results are the commands\' outputs as they were');
      const thinking = claude.requests.at(-1)!.request.messages.flatMap((message) => message.parts.filter((part) => part.type === 'opaque'));
      const firstThinking = thinking[0];
      assert.ok(firstThinking?.type === 'opaque' && (firstThinking.raw as { value: string }).value === steps.find((step) => step.reasoning)!.reasoning, 'the model\'s reasoning as a thinking part');
      const assistants = gpt.requests.at(-1)!.request.messages.filter((message) => message.role === 'assistant');
      assert.ok(assistants.every((message) => dataParts(message, STATEFUL_MARKER_MIME) === 1));
      assert.ok(assistants.every((message) => dataParts(message, CACHE_CONTROL_MIME) === 0), 'no breakpoints on a Responses model\'s assistant messages');
    });

    it('round-trips through the Language Model API unchanged', () => {
      for (const entry of [...claude.requests.slice(-3), ...gpt.requests.slice(-3)]) assert.equal(json(claude.roundTrip(entry.request)), json(entry.request));
    });
  });
});

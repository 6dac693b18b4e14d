/**
 * Copilot-shaped sessions assembled from the real trajectories: what Copilot Chat's agent mode
 * would have sent for the same work. Copilot's parts come from its own export (its system
 * prompts, its environment and context messages, its 69 tools with their schemas); the work
 * comes from the trajectory (the task, every command as the Copilot tool that does the same,
 * with its real output; the model's reasoning as thinking parts; the provider's response ids as
 * stateful markers); the GitHub MCP server's real tools are mixed into the tool list under
 * Copilot's `mcp_<server>_<tool>` naming, and Python snippets run through the Pylance MCP
 * server's tool from the export.
 *
 * The shape follows Copilot's: consecutive read-only steps (reads, greps, listings) go out as
 * one batch of parallel calls (several tool messages after one assistant message); the session
 * is two prompts, the first ending with a reply that calls no tool, and the system prompt of the
 * second is the export's later one (Copilot's system prompt changes between prompts); between
 * them Copilot asks for a summary of the conversation (tools offered, no tool call expected);
 * cache breakpoints are placed by Copilot's own rule on every request (they move); half the
 * sessions are a Claude model's (string-replace edit tools, breakpoints on assistant messages),
 * half a GPT model's (apply_patch and insert_edit_into_file, stateful markers, no breakpoints on
 * assistant messages).
 *
 * Ours, not the data's: the second prompt's words, the summary request's words, the schemas
 * of apply_patch and insert_edit_into_file (the export, from a Claude session, has neither),
 * the merging of consecutive reads into one batch and the edit confirmations' paths.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../../src/core/chat/types';
import type { Trajectory } from '../sharedData';
import { withCopilotBreakpoints } from './copilotBreakpoints';
import { readCopilotExport } from './copilotExport';
import { copilotRequest, languageModelRoundTrip, RAW_PART, RAW_ROLE, rawBreakpoint, rawStatefulMarker, rawText, rawThinking, type RawMessage, type RawPart, type RawTool } from './copilotRaw';
import { asCopilotTools, loadMcpTools } from './mcpTools';
import { callOf, stepsOf, type CopilotCall, type EditStyle, type TrajectoryStep } from './trajectorySteps';
import type { ClientRequest, ClientSession } from './types';

/** The second prompt's words (ours). */
export const CONTINUE_PROMPT = 'Continue: finish the change and confirm it works.';
/** The summary request's words (ours). */
export const SUMMARY_PROMPT = 'Summarize the conversation so far so the work can continue from the summary alone: the request, the files and symbols involved, what was changed and verified, and what is left to do. Answer with the summary only; do not call any tool.';
/** How many read-only steps at most go out as one batch of parallel calls. */
const MAX_BATCH = 3;
/** How many of the GitHub MCP server's tools each session's tool list carries. */
const MCP_TOOLS_PER_SESSION = 20;

/** Our schemas for the two GPT-family edit tools the export does not list. */
const PATCH_TOOLS: readonly RawTool[] = [
  {
    type: 'function',
    function: {
      name: 'apply_patch',
      description: 'Edit text files with a patch: "*** Begin Patch", then for each file "*** Add File: <path>", "*** Update File: <path>" or "*** Delete File: <path>" with its lines, then "*** End Patch".',
      parameters: { type: 'object', properties: { input: { type: 'string', description: 'The patch to apply.' }, explanation: { type: 'string', description: 'What the patch does, in a sentence.' } }, required: ['input', 'explanation'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'insert_edit_into_file',
      description: 'Insert new code into an existing file; unchanged regions are written as "...existing code..." comments.',
      parameters: { type: 'object', properties: { explanation: { type: 'string', description: 'What the edit does, in a sentence.' }, filePath: { type: 'string', description: 'An absolute path to the file to edit.' }, code: { type: 'string', description: 'The code change to apply.' } }, required: ['explanation', 'filePath', 'code'] },
    },
  },
];

/** Copilot's own parts, from its export: two system prompts, the environment message, two context messages, the tools. */
interface CopilotTemplate {
  readonly systems: readonly [RawMessage, RawMessage];
  readonly environment: RawMessage;
  readonly contexts: readonly [string, string];
  readonly tools: readonly RawTool[];
}

let cachedTemplate: CopilotTemplate | undefined;

function template(): CopilotTemplate {
  if (cachedTemplate) return cachedTemplate;
  const requests = readCopilotExport();
  const first = requests[0]!.messages;
  // The first request of the second prompt: its system prompt is the later one, its last user message that prompt's context.
  const later = requests.find((entry) => textOf(entry.messages[0]!) !== textOf(first[0]!));
  if (!later) throw new Error('Herald: the Copilot export has no second system prompt to assemble sessions from');
  const lastUser = [...later.messages].reverse().find((message) => message.role === RAW_ROLE.user)!;
  cachedTemplate = {
    systems: [bare(first[0]!), bare(later.messages[0]!)],
    // The environment message carries the breakpoint Copilot's prompt itself puts on it.
    environment: { ...bare(first[1]!), content: [...bare(first[1]!).content, rawBreakpoint()] },
    contexts: [textOf(first[2]!), textOf(lastUser)],
    tools: requests[0]!.tools,
  };
  return cachedTemplate;
}

function bare(message: RawMessage): RawMessage {
  return { ...message, content: message.content.filter((part) => part.type !== RAW_PART.cacheBreakpoint) };
}

function textOf(message: RawMessage): string {
  return message.content.map((part) => (part.type === RAW_PART.text ? part.text : '')).join('');
}

/** A context message (date, terminals, reminders) with the user's request in place of the export's. */
function contextMessage(context: string, userRequest: string): RawMessage {
  const text = context.replace(/<userRequest>[\s\S]*<\/userRequest>/, `<userRequest>\n${userRequest}\n</userRequest>`);
  return { role: RAW_ROLE.user, content: [rawText(text)] };
}

/** The user's request: the trajectory task's PR description (the rest of that message is mini-swe-agent's own instructions). */
function requestOf(trajectory: Trajectory): string {
  const task = trajectory.messages[1]?.content ?? '';
  return (/<pr_description>([\s\S]*?)<\/pr_description>/.exec(task)?.[1] ?? task).trim();
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** Steps grouped into rounds: consecutive read-only calls together (up to {@link MAX_BATCH}), every other call alone. */
function roundsOf(calls: readonly CopilotCall[]): number[][] {
  const rounds: number[][] = [];
  calls.forEach((call, index) => {
    const open = rounds.at(-1);
    if (call.readOnly && open && open.length < MAX_BATCH && open.every((member) => calls[member]!.readOnly)) open.push(index);
    else rounds.push([index]);
  });
  return rounds;
}

function toolsFor(style: EditStyle, sessionIndex: number): RawTool[] {
  const mcp = loadMcpTools();
  const start = (sessionIndex * 37) % mcp.length;
  const chosen = Array.from({ length: Math.min(MCP_TOOLS_PER_SESSION, mcp.length) }, (_, offset) => mcp[(start + offset) % mcp.length]!);
  const builtIn = style === 'apply-patch'
    ? [...template().tools.filter((tool) => !/replace_string_in_file$/.test(tool.function.name)), ...PATCH_TOOLS]
    : template().tools;
  return [...builtIn, ...asCopilotTools('github', chosen)];
}

/** One trajectory as a Copilot-shaped session; `sessionIndex` picks the model family and the MCP tools. */
export function copilotShapedSession(trajectory: Trajectory, sessionIndex: number): ClientSession {
  const style: EditStyle = sessionIndex % 2 === 0 ? 'replace-string' : 'apply-patch';
  const model = style === 'replace-string' ? 'claude-sonnet-4' : 'gpt-5';
  const steps = stepsOf(trajectory);
  const calls = steps.map((step) => callOf(step, style));
  const rounds = roundsOf(calls);
  const tools = toolsFor(style, sessionIndex);
  const { systems, environment, contexts } = template();
  const idPrefix = `${style === 'replace-string' ? 'toolu_' : 'call_'}${shortHash(trajectory.instance)}`;
  // The second prompt starts halfway, for sessions long enough to have two.
  const boundary = rounds.length >= 6 ? Math.floor(rounds.length / 2) : -1;

  const assistantOf = (round: readonly number[], withThought: boolean): RawMessage => {
    const first: TrajectoryStep = steps[round[0]!]!;
    const content: RawPart[] = [];
    if (first.reasoning) content.push(rawThinking({ id: `thinking_${first.responseId ?? shortHash(first.reasoning)}`, text: first.reasoning }));
    content.push(rawText(withThought ? first.thought : ''));
    if (style === 'apply-patch' && first.responseId) content.push(rawStatefulMarker(model, first.responseId));
    return {
      role: RAW_ROLE.assistant,
      content,
      toolCalls: round.map((stepIndex) => ({ id: `${idPrefix}_${stepIndex}`, type: 'function', function: { name: calls[stepIndex]!.name, arguments: JSON.stringify(calls[stepIndex]!.arguments) } })),
    };
  };

  // The conversation after the system prompt, and where the second prompt begins in it.
  const conversation: RawMessage[] = [environment, contextMessage(contexts[0], requestOf(trajectory))];
  let secondPrompt = -1;
  rounds.forEach((round, roundIndex) => {
    if (roundIndex === boundary) {
      // The first prompt ends with the reasoning of the next step as a reply that calls no tool.
      const step = steps[round[0]!]!;
      conversation.push({ role: RAW_ROLE.assistant, content: [rawText(step.thought), ...(style === 'apply-patch' && step.responseId ? [rawStatefulMarker(model, `${step.responseId}-reply`)] : [])] });
      secondPrompt = conversation.length;
      conversation.push(contextMessage(contexts[1], CONTINUE_PROMPT));
    }
    conversation.push(assistantOf(round, roundIndex !== boundary));
    for (const stepIndex of round) conversation.push({ role: RAW_ROLE.tool, toolCallId: `${idPrefix}_${stepIndex}`, content: [rawText(calls[stepIndex]!.result)] });
  });

  const replyOf = (message: RawMessage): ChatMessage => copilotRequest([message], [], model).messages[0]!;
  const requestAt = (messages: readonly RawMessage[], prompt: number): ClientRequest['request'] =>
    copilotRequest(withCopilotBreakpoints([systems[prompt === 2 ? 1 : 0], ...messages], style === 'replace-string'), tools, model);
  const requests: ClientRequest[] = [];
  conversation.forEach((message, index) => {
    if (message.role !== RAW_ROLE.assistant) return;
    if (index === secondPrompt) return;
    const prompt = secondPrompt >= 0 && index > secondPrompt ? 2 : 1;
    if (index === secondPrompt + 1 && secondPrompt >= 0) {
      // Before the second prompt's first request, Copilot summarized the conversation so far.
      const summary = [...conversation.slice(0, secondPrompt), { role: RAW_ROLE.user, content: [rawText(SUMMARY_PROMPT)] } as RawMessage];
      requests.push({ request: requestAt(summary, 1), calledTools: [], summarization: true });
    }
    requests.push({ request: requestAt(conversation.slice(0, index), prompt), calledTools: (message.toolCalls ?? []).map((call) => call.function.name), reply: replyOf(message) });
  });
  return {
    client: 'copilot-shaped',
    name: trajectory.instance,
    requests,
    roundTrip: languageModelRoundTrip,
    reconstructed: [
      'assembled: Copilot\'s system prompts, context messages and tools from its export; the work, outputs, reasoning and response ids from the trajectory; GitHub MCP tools from the real list',
      'ours: the second prompt\'s and the summary request\'s words, the apply_patch and insert_edit_into_file schemas, consecutive reads batched as parallel calls',
    ],
  };
}

/**
 * `herald_retrieve`: the original behind a marker, byte for byte, inside the turn. Offered on
 * every request Herald optimizes for a client that sends tools (an agent), from a session's
 * first request on, whether or not this request carries a marker yet: the tools block heads the
 * provider's cached prefix, so a tool added at the first elision would make it write the whole
 * prompt again. A request that arrives without any tools (a plain chat), or that Herald did not
 * optimize (off, or failed: it goes out as it came), gets it only when it carries a marker.
 */
import { partText, type ChatRequest, type ToolDefinition } from '../chat/types';
import { findMarkers, isHandle } from '../stash/marker';
import type { OwnTool } from './ownTool';

export const RETRIEVE_TOOL_NAME = 'herald_retrieve';

/** The tool a model is offered when its request carries markers. */
export const RETRIEVE_TOOL: ToolDefinition = {
  name: RETRIEVE_TOOL_NAME,
  // As short as it can be and still say what it does: it rides in every request of a session,
  // before everything the provider caches, and on a short task whose requests are mostly cache
  // reads its tokens can be most of what Herald adds. The marker itself names the handle.
  description: 'The original text behind a [herald: … hr_…] marker.',
  inputSchema: {
    type: 'object',
    properties: { handle: { type: 'string' } },
    required: ['handle'],
  },
};

export const retrieveTool: OwnTool = {
  name: RETRIEVE_TOOL_NAME,
  offer: (context) => ((context.optimized && context.original.tools.length > 0) || hasMarkers(context.request) ? RETRIEVE_TOOL : undefined),
  answer: async (input, context) => {
    const handle = handleOf(input);
    const text = await answerRetrieveCall(input, context.retrieve);
    return handle === undefined ? { text, isError: true } : { text };
  },
};

/** The text a `herald_retrieve` call gets back: the original, or why there is none. */
export async function answerRetrieveCall(input: object, retrieve: (handle: string) => Promise<string | undefined>): Promise<string> {
  const handle = handleOf(input);
  if (handle === undefined) {
    return 'Herald: herald_retrieve needs {"handle": "hr_…"} with a handle copied from a marker in this conversation.';
  }
  const original = await retrieve(handle);
  return original ?? `Herald: nothing is stored under ${handle} (it expired or belongs to another machine); continue without it or ask the user.`;
}

function handleOf(input: object): string | undefined {
  const handle = (input as { handle?: unknown }).handle;
  return typeof handle === 'string' && isHandle(handle.trim()) ? handle.trim() : undefined;
}

function hasMarkers(request: ChatRequest): boolean {
  return request.messages.some((message) => message.parts.some((part) => findMarkers(partText(part)).length > 0));
}

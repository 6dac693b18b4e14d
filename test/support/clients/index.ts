/**
 * Real client traffic from ../shared/data/clients, as request sequences (see each loader), and
 * the trajectories as the plain OpenAI requests mini-swe-agent sent.
 */
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import type { ChatRequest } from '../../../src/core/chat/types';
import { loadTrajectory, trajectoryNames, turnRequests } from '../sharedData';
import { claudeCodeLongSessionFiles, claudeCodeShortSessionFiles, loadClaudeCodeSession } from './claudeCode';
import { loadCopilotExport } from './copilotExport';
import { copilotShapedSession } from './copilotShaped';
import type { ClientSession } from './types';

export * from './types';
export { loadCopilotExport, readCopilotExport, COPILOT_EXPORT_FILE } from './copilotExport';
export { loadClaudeCodeSession, claudeCodeLongSessionFiles, claudeCodeShortSessionFiles, claudeCodeSpotterMainFiles, anthropicRoundTrip } from './claudeCode';
export { copilotShapedSession, CONTINUE_PROMPT, SUMMARY_PROMPT } from './copilotShaped';
export { loadMcpTools, copilotMcpName, claudeCodeMcpName, asCopilotTools, type McpTool } from './mcpTools';
export { copilotRequest, languageModelRoundTrip, toLanguageModelMessages, CACHE_CONTROL_MIME, STATEFUL_MARKER_MIME } from './copilotRaw';

/** The groups the client bench reports on. */
export type ClientGroup = 'copilot-export' | 'copilot-shaped' | 'claude-code-long' | 'claude-code-short' | 'trajectories';

export const CLIENT_GROUPS: readonly ClientGroup[] = ['copilot-export', 'copilot-shaped', 'claude-code-long', 'claude-code-short', 'trajectories'];

/** What an OpenAI endpoint receives: the request written to the wire and read back. */
export function openaiRoundTrip(request: ChatRequest): ChatRequest {
  return parseRequest(JSON.parse(JSON.stringify(serializeRequest(request))) as unknown, 'openai');
}

/** A trajectory as the requests mini-swe-agent sent (no tools, one observation a turn). */
export function trajectorySession(instance: string): ClientSession {
  const requests = turnRequests(loadTrajectory(instance)).map((body, index, all) => {
    const request = parseRequest(body, 'openai');
    const next = all[index + 1];
    const reply = next ? parseRequest(next, 'openai').messages[request.messages.length] : undefined;
    return { request, calledTools: [], ...(reply ? { reply } : {}) };
  });
  return { client: 'mini-swe-agent', name: instance, requests, roundTrip: openaiRoundTrip, reconstructed: [] };
}

/** The sessions of one group; `limit` keeps the first that many (sessions are in a fixed order). */
export function sessionsOf(group: ClientGroup, limit = Infinity): ClientSession[] {
  switch (group) {
    case 'copilot-export':
      return [loadCopilotExport()];
    case 'copilot-shaped':
      return trajectoryNames().slice(0, limit).map((name, index) => copilotShapedSession(loadTrajectory(name), index));
    case 'claude-code-long':
      return claudeCodeLongSessionFiles().slice(0, limit).map(loadClaudeCodeSession);
    case 'claude-code-short':
      return claudeCodeShortSessionFiles().slice(0, limit).map(loadClaudeCodeSession);
    case 'trajectories':
      return trajectoryNames().slice(0, limit).map(trajectorySession);
  }
}

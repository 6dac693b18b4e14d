/**
 * MCP tools under every client's naming. A client that offers a Model Context Protocol
 * server's tools to a model renames each one so tools of different servers cannot collide:
 *
 * - Claude Code (and Codex since it adopted the same form): `mcp__<server>__<tool>`;
 * - GitHub Copilot in VS Code: `mcp_<server>_<tool>`, the server label itself often holding
 *   underscores (`mcp_pylance_mcp_s_pylanceRunCodeSnippet`);
 * - server-prefixed names without an `mcp` prefix: `<server>__<tool>` (Codex before it added
 *   the prefix), `<server>:<tool>`, `<server>.<tool>`, `<server>/<tool>` (aggregating proxies),
 *   and `<server>_<tool>` or `<server>-<tool>` when at least {@link SERVER_GROUP_MIN} tools of
 *   the list share a prefix that is not a verb (`github_create_issue`, `github_list_issues`, …).
 *
 * The server part tells which server a tool belongs to, not what the tool does, so it never
 * ties a tool to the conversation on its own; and the catalog lists a server's tools together.
 */

/** Which naming an MCP tool came under. */
export type McpConvention = 'claude-code' | 'copilot' | 'server-prefixed';

/** What the name says about an MCP tool. */
export interface McpToolName {
  readonly convention: McpConvention;
  /** The server's label as the name carries it. */
  readonly server: string;
  /** The tool's own name, without the server part. */
  readonly tool: string;
}

/** Least number of tools sharing a `<prefix>_` before the prefix counts as a server's name. */
export const SERVER_GROUP_MIN = 3;

const CLAUDE_CODE = /^mcp__(.+?)__(.+)$/;
const COPILOT = /^mcp_(?!_)(.+)$/;
/** Separators no plain tool name uses (OpenAI allows only letters, digits, `_` and `-`). */
const SERVER_SEPARATED = /^([A-Za-z0-9][A-Za-z0-9_-]*?)(__|:|\.|\/)([A-Za-z0-9].*)$/;
/** Words a tool name starts with when it says what the tool does, not whose it is. */
const VERBS = new Set(
  ('get list read write run create update delete remove add set search find fetch open close install uninstall edit insert replace apply ' +
    'configure manage show view test check start stop call send post put patch move copy rename execute invoke make build new load save ' +
    'select query lookup describe submit merge push pull sync upload download generate render resolve request reply mark enable disable').split(' '),
);

/** The MCP tools among `names`, each with its convention and server; other names are absent. */
export function mcpNamesOf(names: readonly string[]): Map<string, McpToolName> {
  const found = new Map<string, McpToolName>();
  const copilot: string[] = [];
  const rest: string[] = [];
  for (const name of names) {
    const claude = CLAUDE_CODE.exec(name);
    if (claude) {
      found.set(name, { convention: 'claude-code', server: claude[1]!, tool: claude[2]! });
      continue;
    }
    if (COPILOT.test(name)) {
      copilot.push(name);
      continue;
    }
    const separated = SERVER_SEPARATED.exec(name);
    if (separated) {
      found.set(name, { convention: 'server-prefixed', server: separated[1]!, tool: separated[3]! });
      continue;
    }
    rest.push(name);
  }
  const bodies = copilot.map((name) => name.slice('mcp_'.length));
  copilot.forEach((name, index) => {
    const body = bodies[index]!;
    const server = serverLabel(body, bodies);
    found.set(name, { convention: 'copilot', server, tool: body.slice(server.length + 1) || body });
  });
  for (const [prefix, members] of groupsByPrefix(rest)) {
    if (members.length < SERVER_GROUP_MIN || VERBS.has(prefix.toLowerCase())) continue;
    for (const name of members) found.set(name, { convention: 'server-prefixed', server: prefix, tool: name.slice(prefix.length + 1) });
  }
  return found;
}

/**
 * The server label of a Copilot MCP name's body (`pylance_mcp_s_pylanceRunCodeSnippet`). The
 * label may hold underscores, so of the prefixes ending before a `_` the one the most MCP names
 * share is the server's (`github`, not `github_actions`, which only the actions tools share);
 * among equally shared ones the longest (`pylance_mcp_s`, which every Pylance tool carries).
 */
function serverLabel(body: string, bodies: readonly string[]): string {
  let best = '';
  let bestCount = 0;
  for (let index = body.indexOf('_'); index > 0 && index + 1 < body.length; index = body.indexOf('_', index + 1)) {
    const label = body.slice(0, index);
    const count = bodies.filter((other) => other.startsWith(`${label}_`) && other.length > label.length + 1).length;
    if (count >= bestCount) {
      best = label;
      bestCount = count;
    }
  }
  return best || body;
}

/** Names grouped by what comes before their first `_` (or, for hyphenated labels, the `_` after them). */
function groupsByPrefix(names: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const match = /^([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)_(?=[A-Za-z0-9])/.exec(name);
    if (!match) continue;
    const prefix = match[1]!;
    groups.set(prefix, [...(groups.get(prefix) ?? []), name]);
  }
  return groups;
}

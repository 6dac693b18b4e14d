/**
 * Messages between the extension host and the sidebar's webviews, validated with zod on both
 * sides: a message that does not match is dropped and logged, never half-handled.
 *
 * Written with `zod/mini` (the same validation, functions instead of methods): each webview
 * bundle is a browser script of its own and carried the whole of zod; the tree-shakable form
 * leaves in each bundle only what these schemas use.
 */
import * as z from 'zod/mini';

export const decisionViewSchema = z.object({
  strategy: z.string(),
  status: z.string(),
  action: z.string(),
  reason: z.string(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  durationMs: z.number(),
  handles: z.array(z.string()),
});

const usageSchema = z.object({ inputTokens: z.number(), cacheReadTokens: z.number(), cacheWriteTokens: z.number(), outputTokens: z.number() });

export const requestViewSchema = z.object({
  id: z.string(),
  startedAt: z.number(),
  model: z.string(),
  status: z.enum(['optimized', 'served-from-cache', 'forwarded-original', 'optimizer-off', 'failed', 'cancelled']),
  /** Who asked: the chat, or Herald itself (the library's plan, the filter's check). */
  origin: z.enum(['caller', 'herald']),
  /** The request as the caller sent it: what going direct would have sent, once. */
  tokensBefore: z.number(),
  /** What Herald sent, every round of the turn. */
  tokensAfter: z.number(),
  /** Negative when Herald sent more; 0 for a failed or cancelled request and for Herald's own calls. */
  savedTokens: z.number(),
  savedPercent: z.number(),
  /** Requests sent to the target this turn (Herald's own retrieve rounds included). */
  rounds: z.number(),
  billing: z.enum(['premium-requests', 'tokens', 'unknown']),
  premiumRequests: z.number(),
  /** The provider's own usage figures over every round, when it reported them. */
  usage: z.optional(usageSchema),
  /** Money at the price table, when the model is in it: what was billed, and the original sent once without Herald. */
  cost: z.optional(z.object({ priceKey: z.string(), billedUsd: z.number(), unoptimizedUsd: z.number(), withoutHerald: z.optional(usageSchema) })),
  optimizeMs: z.number(),
  totalMs: z.number(),
  retrievals: z.number(),
  replayedMessages: z.number(),
  contextQuality: z.optional(z.string()),
  error: z.optional(z.string()),
  /** Only with content mode on. */
  promptPreview: z.optional(z.string()),
  decisions: z.array(decisionViewSchema),
});

export const totalsSchema = z.object({
  requests: z.number(),
  ownCalls: z.number(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  tokensSaved: z.number(),
  savedPercent: z.number(),
  retrievals: z.number(),
  failures: z.number(),
  cancelled: z.number(),
  premiumRequests: z.number(),
  billedUsd: z.number(),
  unoptimizedUsd: z.number(),
  pricedRequests: z.number(),
});

export const pageViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Workspace-relative path, used to open the page. */
  path: z.string(),
  folder: z.string(),
  type: z.string(),
  status: z.string(),
  flags: z.array(z.string()),
  tags: z.array(z.string()),
});

export const libraryViewSchema = z.object({
  /** The library folder as configured. */
  folder: z.string(),
  /** False when there is no workspace or no library folder yet. */
  available: z.boolean(),
  /** Why the library is unavailable, or a note about it. */
  message: z.optional(z.string()),
  pages: z.array(pageViewSchema),
  /** Recent library events, newest first. */
  activity: z.array(z.object({ time: z.number(), text: z.string() })),
  /** The last search, when there was one. */
  search: z.optional(
    z.object({
      query: z.string(),
      results: z.array(pageViewSchema),
      /** Shown with "nothing found": the pages closest to the query. */
      nearest: z.array(pageViewSchema),
    }),
  ),
});

/** Host → webview. */
export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('decisions'),
    requests: z.array(requestViewSchema),
    totals: totalsSchema,
    optimizerEnabled: z.boolean(),
    /** GitHub's page of premium-request multipliers, linked where premium requests are counted. */
    multiplierUrl: z.string(),
    /** When the price table was checked (shown with money figures). */
    pricesChecked: z.string(),
  }),
  z.object({ type: z.literal('library'), library: libraryViewSchema }),
]);

export const WEBVIEW_COMMANDS = ['export-report', 'toggle-optimizer', 'manage-endpoints', 'new-page', 'reindex', 'retrieve', 'enable-models', 'open-prices', 'open-multipliers'] as const;

/** Webview → host. */
export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('open-handle'), handle: z.string().check(z.regex(/^hr_[a-z2-7]{16}$/)) }),
  z.object({ type: z.literal('open-page'), path: z.string().check(z.minLength(1), z.maxLength(1000)) }),
  z.object({ type: z.literal('search'), query: z.string().check(z.maxLength(2000)) }),
  z.object({ type: z.literal('command'), command: z.enum(WEBVIEW_COMMANDS) }),
]);

export type DecisionView = z.infer<typeof decisionViewSchema>;
export type RequestView = z.infer<typeof requestViewSchema>;
export type PageView = z.infer<typeof pageViewSchema>;
export type LibraryView = z.infer<typeof libraryViewSchema>;
export type HostMessage = z.infer<typeof hostMessageSchema>;
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** A validated message, or undefined (the caller logs the drop). */
export function parseHostMessage(value: unknown): HostMessage | undefined {
  const parsed = hostMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  const parsed = webviewMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

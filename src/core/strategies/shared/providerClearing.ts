import type { ChatRequest } from '../../chat/types';
import { isObject } from '../../chat/objects';

/**
 * True when the request carries Anthropic's context-management edit that clears old tool
 * uses (`context_management.edits[].type` = `clear_tool_uses_…`), set by the client or by
 * provider_context_trim: the provider will drop old tool results itself.
 */
export function hasProviderClearing(request: ChatRequest): boolean {
  const management = request.options.context_management;
  if (!isObject(management) || !Array.isArray(management.edits)) return false;
  return management.edits.some((edit) => isObject(edit) && typeof edit.type === 'string' && edit.type.startsWith('clear_tool_uses'));
}

/**
 * A client's pointer to a result Herald elided. Claude Code answers a repeated read of an
 * unchanged file with "file unchanged since your last Read. Refer to that earlier tool_result
 * instead"; when Herald had already elided that earlier result (decided before the pointer
 * existed, and the provider holds it so), the pointer would lead to a marker. The request then
 * goes out with the original text after the pointer, where the model looks: cheaper than a
 * retrieve round, which re-sends the whole request and is gone again on the next turn. The
 * same request gets the same text every time (the stash gives the original byte for byte), so
 * the cached prefix stays stable.
 */
import { replaceSegments } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import { findMarkers } from '../stash/marker';
import { clientPointers } from '../strategies/shared/clientReferences';

/** The request with each pointer to an elided result followed by that result's original; the same object when there is none. */
export async function answerClientPointers(request: ChatRequest, retrieve: (handle: string) => Promise<string | undefined>): Promise<ChatRequest> {
  const pointers = clientPointers(request);
  if (pointers.length === 0) return request;
  const replacements = new Map<string, string>();
  for (const { pointer, target } of pointers) {
    const marker = findMarkers(target.text)[0];
    if (!marker) continue;
    const original = await retrieve(marker.handle);
    if (original === undefined) continue;
    replacements.set(pointer.key, `${pointer.text}\n\n[herald: that earlier result was elided from this conversation; its full text follows]\n${original}`);
  }
  return replacements.size > 0 ? replaceSegments(request, replacements) : request;
}

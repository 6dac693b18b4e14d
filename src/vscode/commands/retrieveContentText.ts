/** What the Retrieve box understands of what was typed or pasted. Pure. */
import { HANDLE_PATTERN } from '../../core/stash/marker';

/** The handle in what the user typed or pasted: a bare handle, a whole marker, or a line around one. */
export function handleInText(value: string): string | undefined {
  return HANDLE_PATTERN.exec(value)?.[0];
}

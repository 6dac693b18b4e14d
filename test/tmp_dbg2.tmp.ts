import { TokenCounter } from '../src/core/tokens';
import { buildWorkloads } from './support/workloads';
import { runWorkload } from './support/workloads/measure';
import { messageText } from '../src/core/chat/types';
const id = process.argv[2]!;
const w = buildWorkloads().find((x) => x.id === id)!;
void runWorkload(w, new TokenCounter()).then((r) => {
  console.log(r.savedBy, r.hidden.length);
  const m = r.optimized.messages[r.optimized.messages.length - 1]!;
  console.log(messageText(m).slice(0, Number(process.argv[3] ?? 3000)));
});

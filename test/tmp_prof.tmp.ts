import { TokenCounter } from '../src/core/tokens';
import { parseRequest } from '../src/core/chat';
import { Pipeline } from '../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../src/core/stash';
import { createStrategies } from '../src/core/strategies';
import { buildWorkloads } from './support/workloads';
const id = process.argv[2]!;
const w = buildWorkloads().find((x) => x.id === id)!;
const tokens = new TokenCounter();
void (async () => {
  for (let i = 0; i < 2; i++) {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const p = new Pipeline(createStrategies(), {}, { stash, tokens });
    const t0 = performance.now();
    const r = await p.run(parseRequest(w.body));
    console.log('total', (performance.now() - t0).toFixed(0), r.decisions.filter((d) => d.durationMs > 5).map((d) => `${d.strategy}:${d.durationMs.toFixed(0)}`).join(' '));
  }
})();

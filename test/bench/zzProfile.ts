import { bundleCore, loadBundledCore } from './shippedCore';
import { conversation, freshCopy } from './pipelineSpeed.bench';
import * as path from 'node:path';
async function main() {
  const core = loadBundledCore(await bundleCore(path.resolve(__dirname, '..', '..')), 'x');
  const { warmups, request, tokens } = conversation();
  const mk = () => { const stash = new core.Stash({ store: new core.MemoryBlobStore(), key: new Uint8Array(32) }); return new core.Pipeline(core.createStrategies(), {}, { stash, tokens: new core.TokenCounter(200_000) }); };
  for (const w of warmups) await mk().run(w);
  const per: Record<string, number[]> = {}; const tot: number[] = [];
  const N = Number(process.env.N ?? 21);
  for (let i = 0; i < N; i++) {
    const r = await mk().run(freshCopy(request, i + 1));
    tot.push(r.durationMs);
    let sum = 0;
    for (const d of r.decisions) { (per[d.strategy] ??= []).push(d.durationMs); sum += d.durationMs; }
    (per['(outside strategies)'] ??= []).push(r.durationMs - sum);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  console.log('tokens', tokens, 'total median', med(tot).toFixed(2), 'per10k', (med(tot) / tokens * 1e4).toFixed(2));
  for (const [k, v] of Object.entries(per).sort((a, b) => med(b[1]) - med(a[1]))) if (med(v) > 0.2) console.log(k.padEnd(28), med(v).toFixed(2));
}
main();

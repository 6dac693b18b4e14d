import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServe } from './src/cli/serveCommand';
import { FakeUpstream } from './test/unit/gateway/fakeUpstream';
import { anthropicEvents } from './test/unit/gateway/providerAnswers';
function toolOutput(session: number, turn: number): string {
  const lines = 30 + ((session * 7 + turn * 13) % 60);
  return Array.from({ length: lines }, (_, line) => `2026-03-0${1 + (turn % 9)}T10:${String(line % 60).padStart(2, '0')}:00Z INFO s${session} worker-${line % 5} handled job ${turn * 1000 + line} in ${(line * 37) % 900} ms`).join('\n');
}
(async () => {
  const up = new FakeUpstream(() => ({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'ok' }] }) }));
  const url = await up.start();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'p-'));
  const serve = await startServe(['--port', '0', '--anthropic-base-url', url, '--stash', folder, '--quiet'], { readStdin: async () => '', stdout: () => {}, stderr: () => {} });
  const t0 = performance.now(); const c0 = process.cpuUsage();
  let n = 0;
  for (let session = 0; session < 4; session++) for (let turn = 0; turn < 24; turn++) {
    const messages: unknown[] = [{ role: 'user', content: `Session s${session}: find the slowest job.` }];
    for (let i = 0; i < turn; i++) {
      messages.push({ role: 'assistant', content: [{ type: 'text', text: `Looking at part ${i}.` }, { type: 'tool_use', id: `t${session}_${i}`, name: 'Bash', input: { command: `cat part${i}.log` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${session}_${i}`, content: toolOutput(session, i) }] });
    }
    const r = await fetch(`http://127.0.0.1:${serve.port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', max_tokens: 10, stream: true, system: 'You are a coding agent.', messages }) });
    await r.text(); n++;
  }
  const c = process.cpuUsage(c0);
  const recs = serve.gateway.recent();
  const opt = recs.map(r => r.optimizeMs).sort((a,b)=>a-b);
  console.log('requests', n, 'wall ms/req', ((performance.now()-t0)/n).toFixed(1), 'cpu ms/req', ((c.user+c.system)/1000/n).toFixed(1), 'optimize p50', opt[Math.floor(opt.length/2)].toFixed(1));
  await serve.stop(); await up.close();
})();

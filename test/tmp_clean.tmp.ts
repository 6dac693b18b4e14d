import * as fs from 'node:fs';
import { cleanContent } from '../src/core/content';
import { TokenCounter } from '../src/core/tokens';
const t = new TokenCounter();
for (const s of fs.readdirSync('../shared/data/logs')) {
  const text = fs.readFileSync(`../shared/data/logs/${s}/${s}_2k.log`, 'utf8');
  const r = cleanContent(text);
  console.log(s.padEnd(12), r.format, t.count(text), t.count(r.text), (100 - 100 * t.count(r.text) / t.count(text)).toFixed(1) + '%', r.text.split('\n').length);
}

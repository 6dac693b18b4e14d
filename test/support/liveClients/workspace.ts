/**
 * The scratch workspace the live clients work in: a small Python service ("inventory") with
 * its modules, tests, configuration, a 240 KB server log, a build log and a CSV of orders. Made
 * from a fixed seed, so every run (straight and through Herald) sees the same bytes at the same
 * path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export const MODULES = ['catalog', 'pricing', 'stock', 'orders', 'sync', 'shipping', 'returns', 'suppliers', 'reports', 'auth', 'cache', 'scheduler'];

const WORDS = ['item', 'sku', 'warehouse', 'batch', 'quantity', 'price', 'discount', 'region', 'supplier', 'order', 'invoice', 'shipment', 'carrier', 'ledger', 'reserve'];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

function moduleSource(name: string, rand: () => number): string {
  const lines = [`"""The ${name} part of the inventory service."""`, 'import logging', 'from dataclasses import dataclass', '', `log = logging.getLogger("inventory.${name}")`, ''];
  const functions = 6 + Math.floor(rand() * 6);
  for (let index = 0; index < functions; index++) {
    const noun = pick(rand, WORDS);
    const fn = `${pick(rand, ['load', 'apply', 'compute', 'check', 'merge', 'refresh'])}_${noun}_${index}`;
    lines.push('', `def ${fn}(${noun}, options=None):`, `    """${fn.replace(/_/g, ' ')} for one ${noun}."""`);
    const body = 5 + Math.floor(rand() * 12);
    for (let line = 0; line < body; line++) {
      const word = pick(rand, WORDS);
      const roll = rand();
      if (roll < 0.08) lines.push(`    # TODO(${pick(rand, ['ana', 'bo', 'chen'])}): ${word} handling is deprecated, use ${pick(rand, WORDS)}_v2`);
      else if (roll < 0.14) lines.push(`    if ${word} is None:`, `        log.error("missing ${word} in ${fn}")`, '        raise ValueError("timeout waiting for ' + word + '")');
      else lines.push(`    ${word}_${line} = ${noun}.get("${word}", ${Math.floor(rand() * 500)}) * ${(rand() * 3).toFixed(2)}`);
    }
    lines.push(`    return ${noun}`);
  }
  lines.push('', '', '@dataclass', `class ${name[0]!.toUpperCase()}${name.slice(1)}Config:`, '    retries: int = 3', `    timeout_s: float = ${(5 + rand() * 25).toFixed(1)}`, '');
  return lines.join('\n');
}

function serverLog(rand: () => number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  let second = 0;
  while (size < bytes) {
    second += 1 + Math.floor(rand() * 3);
    const time = new Date(Date.UTC(2026, 2, 1, 0, 0, second)).toISOString();
    const roll = rand();
    let line: string;
    if (roll < 0.012) line = `${time} ERROR [worker-${Math.floor(rand() * 8)}] sync failed for sku=${Math.floor(rand() * 90000)}: upstream timeout after 30.0s (attempt ${1 + Math.floor(rand() * 3)}/3)`;
    else if (roll < 0.04) line = `${time} WARN  [worker-${Math.floor(rand() * 8)}] slow query on ${pick(rand, WORDS)}s took ${Math.floor(800 + rand() * 4000)} ms`;
    else line = `${time} INFO  [worker-${Math.floor(rand() * 8)}] GET /api/${pick(rand, WORDS)}s/${Math.floor(rand() * 90000)} status=200 ms=${Math.floor(rand() * 120)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

function buildLog(rand: () => number): string {
  const lines = ['$ make build', 'python -m compileall src'];
  for (let step = 0; step < 700; step++) {
    const name = pick(rand, MODULES);
    const roll = rand();
    if (roll < 0.03) lines.push(`src/inventory/${name}.py:${Math.floor(rand() * 200)}: DeprecationWarning: ${pick(rand, WORDS)} handling is deprecated`);
    else lines.push(`Compiling 'src/inventory/${name}.py'... ok (${Math.floor(rand() * 40)} ms)`);
  }
  lines.push('build finished: 0 errors, 21 warnings');
  return lines.join('\n') + '\n';
}

function ordersCsv(rand: () => number): string {
  const lines = ['order_id,sku,region,quantity,unit_price,status'];
  for (let order = 1; order <= 3000; order++) {
    lines.push(`${100000 + order},${Math.floor(rand() * 90000)},${pick(rand, ['eu-west', 'eu-north', 'us-east', 'us-west', 'ap-south'])},${1 + Math.floor(rand() * 20)},${(rand() * 200).toFixed(2)},${pick(rand, ['shipped', 'shipped', 'shipped', 'pending', 'returned', 'cancelled'])}`);
  }
  return lines.join('\n') + '\n';
}

/** Writes the workspace into `root` (emptied first). */
export function writeWorkspace(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
  const rand = random(20260301);
  const write = (relative: string, text: string): void => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  write('README.md', ['# inventory', '', 'A small inventory service: catalog, pricing, stock, orders and their nightly sync.', '', '## Layout', '', ...MODULES.map((name) => `- \`src/inventory/${name}.py\`: the ${name} part`), '', '## Running', '', '    make build', '    python -m inventory.scheduler --nightly', '', 'Logs go to `logs/`. The nightly sync retries three times on an upstream timeout.', ''].join('\n'));
  for (const name of MODULES) write(`src/inventory/${name}.py`, moduleSource(name, rand));
  write('src/inventory/__init__.py', '');
  for (const name of MODULES.slice(0, 5)) write(`tests/test_${name}.py`, `from inventory import ${name}\n\n\ndef test_${name}_loads():\n    assert ${name} is not None\n`);
  write('config/settings.json', JSON.stringify({ sync: { retries: 3, timeout_s: 30, batch_size: 500, regions: ['eu-west', 'eu-north', 'us-east', 'us-west', 'ap-south'] }, pricing: { currency: 'EUR', rounding: 'half-even', deprecated_discount_table: true }, cache: { ttl_s: 300, max_entries: 20000 } }, null, 2) + '\n');
  write('logs/server.log', serverLog(rand, 240 * 1024));
  write('logs/build.log', buildLog(rand));
  write('data/orders.csv', ordersCsv(rand));
  write('Makefile', 'build:\n\tpython -m compileall src\n\ntest:\n\tpython -m pytest -q\n');
}

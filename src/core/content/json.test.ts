import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { cleanJson } from './json';

interface Order {
  id: number;
  customer: string;
  status: string;
  total: number;
  note: string | null;
  tags: string[];
}

function orders(count: number, change: (order: Order, index: number) => void = () => undefined): Order[] {
  return Array.from({ length: count }, (_, index) => {
    const order: Order = { id: index + 1, customer: `customer-${index}`, status: 'paid', total: 20 + (index % 9), note: null, tags: [] };
    change(order, index);
    return order;
  });
}

function parsed(text: string): unknown[] {
  const value: unknown = JSON.parse(text);
  assert.ok(Array.isArray(value));
  return value;
}

function ids(rows: readonly unknown[]): number[] {
  return rows.flatMap((row) => (row !== null && typeof row === 'object' && 'id' in row ? [(row as { id: number }).id] : []));
}

describe('cleanJson', () => {
  it('keeps a failed order at position 400 of 500', () => {
    const result = cleanJson(JSON.stringify(orders(500, (order, index) => { if (index === 399) order.status = 'failed'; }), null, 2));
    const rows = parsed(result.text);
    assert.ok(ids(rows).includes(400), 'the failed order survives');
    assert.ok(rows.some((row) => JSON.stringify(row).includes('"failed"')));
    assert.ok(result.text.length < 2_000, `summarised to ${result.text.length} chars`);
    assert.ok(rows.some((row) => typeof row === 'string' && row.includes('elided') && row.includes('status:string')), 'a shape marker');
  });

  it('keeps rows with a rare value, an outlier number or an error field', () => {
    const data = orders(300, (order, index) => {
      if (index === 120) order.status = 'refunded';
      if (index === 250) order.total = 98_000;
    });
    (data[180] as Order & { error?: string }).error = 'card declined';
    const rows = parsed(cleanJson(JSON.stringify(data)).text);
    for (const id of [121, 181, 251]) assert.ok(ids(rows).includes(id), `row ${id} kept`);
    assert.ok(ids(rows).length < 12, `only a handful of rows kept: ${ids(rows).length}`);
  });

  it('keeps rows matching the words of the question', () => {
    const rows = parsed(cleanJson(JSON.stringify(orders(200)), { question: 'what did customer-137 order?' }).text);
    assert.ok(ids(rows).includes(138));
  });

  it('minifies, drops empty fields and keeps short arrays whole', () => {
    const result = cleanJson('{\n  "name": "herald",\n  "tags": [],\n  "owner": null,\n  "meta": {},\n  "blank": "",\n  "zero": 0,\n  "off": false,\n  "list": [1, 2, 3]\n}');
    assert.equal(result.text, '{"name":"herald","zero":0,"off":false,"list":[1,2,3]}');
    assert.ok(result.removed.includes('4 empty fields'));
  });

  it('replaces an encoded blob by its length and keeps ordinary long strings', () => {
    const blob = 'H4sIAAAAAAAAA'.repeat(40);
    const prose = 'word '.repeat(100);
    const result = cleanJson(JSON.stringify({ content: blob, description: prose }, null, 2));
    assert.deepEqual(JSON.parse(result.text), { content: `[encoded blob, ${blob.length} chars elided]`, description: prose });
  });

  it('keeps a long list of small values whole when a summary would save little', () => {
    const list = Array.from({ length: 30 }, (_, index) => index);
    assert.equal(cleanJson(JSON.stringify({ list }, null, 2)).text, JSON.stringify({ list }));
  });

  it('writes an object that repeats an earlier one once, later copies pointing at the first', () => {
    const owner = { login: 'octokit-fixture-org', id: 31898100, url: 'https://api.github.com/users/octokit-fixture-org', html_url: 'https://github.com/octokit-fixture-org', type: 'Organization' };
    const responses = [1, 2, 3].map((id) => ({ id, name: `repo-${id}`, owner }));
    const result = cleanJson(JSON.stringify(responses, null, 2));
    const cleaned = JSON.parse(result.text) as { owner: unknown }[];
    assert.deepEqual(cleaned[0]!.owner, owner);
    assert.equal(cleaned[1]!.owner, '[same as $[0].owner]');
    assert.equal(cleaned[2]!.owner, '[same as $[0].owner]');
    assert.ok(result.removed.some((line) => /2 repeated objects written once/.test(line)));
  });

  it('keeps a spike in a heavy-tailed series, and only the most extreme of the many values that stand out', () => {
    const points = Array.from({ length: 400 }, (_, index) => ({ minute: index, opened: index % 5 === 0 ? 20 + (index % 7) : index % 3, bytes: 100 + ((index * 7919) % 50_000) * (index % 11 === 0 ? 40 : 1) }));
    points[291] = { minute: 291, opened: 743, bytes: 500 };
    const cleaned = JSON.parse(cleanJson(JSON.stringify(points)).text) as unknown[];
    assert.ok(cleaned.some((row) => typeof row === 'object' && (row as { opened: number }).opened === 743), 'the spike stays');
    assert.ok(cleaned.length < 40, `${cleaned.length} entries`);
  });

  it('folds an API object\'s many link fields to one, keeping its own address, its page and a link the question names', () => {
    const base = 'https://api.example.com/repos/acme/shop';
    const names = ['forks', 'keys', 'tags', 'hooks', 'teams', 'blobs', 'trees', 'labels', 'issues', 'pulls'];
    const repo: Record<string, unknown> = { id: 7, name: 'shop', url: base, html_url: 'https://example.com/acme/shop', default_branch: 'main' };
    for (const name of names) repo[`${name}_url`] = `${base}/${name}{/id}`;
    repo.private = false;
    const result = cleanJson(JSON.stringify({ repository: repo }, null, 2));
    const cleaned = JSON.parse(result.text) as { repository: Record<string, unknown> };
    assert.equal(cleaned.repository.url, base);
    assert.equal(cleaned.repository.html_url, 'https://example.com/acme/shop');
    assert.equal(cleaned.repository.default_branch, 'main');
    assert.equal(cleaned.repository.private, false);
    assert.equal(cleaned.repository.forks_url, undefined);
    assert.equal(cleaned.repository['…links'], '[10 more link fields elided: forks_url, keys_url, tags_url, …]');
    assert.ok(result.removed.includes('10 link fields (addresses of other API endpoints) in 1 object'), result.removed.join('; '));
    // The question names one: it stays.
    const asked = JSON.parse(cleanJson(JSON.stringify({ repository: repo }), { question: 'Which hooks_url does the shop repo use?' }).text) as { repository: Record<string, unknown> };
    assert.equal(asked.repository.hooks_url, `${base}/hooks{/id}`);
    // A question about the links keeps them all.
    const links = JSON.parse(cleanJson(JSON.stringify({ repository: repo }), { question: 'Which API endpoints does the repository link to?' }).text) as { repository: Record<string, unknown> };
    assert.equal(links.repository.forks_url, `${base}/forks{/id}`);
    // A few links are data, not boilerplate.
    const few = { url: base, html_url: base, forks_url: `${base}/forks`, keys_url: `${base}/keys` };
    assert.deepEqual(JSON.parse(cleanJson(JSON.stringify(few, null, 2)).text), few);
  });

  it('returns text that does not parse, or nests too deep to rewrite, unchanged', () => {
    for (const text of ['{"a": 1', 'not json', '{"a": 1}\n{"a": 2}', `${'['.repeat(100_000)}${']'.repeat(100_000)}`]) {
      const result = cleanJson(text);
      assert.equal(result.changed, false);
      assert.equal(result.text, text);
    }
  });

  itWithData('shrinks the recorded GitHub API conversations to valid JSON, keeping the failed requests', () => {
    const folder = sharedPath('json', 'github-api');
    let before = 0;
    let after = 0;
    for (const file of fs.readdirSync(folder)) {
      const text = fs.readFileSync(`${folder}/${file}`, 'utf8');
      const result = cleanJson(text);
      const original = JSON.parse(text) as { status: number }[];
      const cleaned = JSON.parse(result.text) as unknown[];
      // Every exchange is an element of a short array, so every one stays, with its status.
      const statuses = cleaned.map((exchange) => (exchange as { status?: number }).status);
      assert.deepEqual(statuses, original.map((exchange) => exchange.status), file);
      before += text.length;
      after += result.text.length;
    }
    assert.ok(after < before * 0.7, `${after} of ${before} chars`);
  });
});

import * as assert from 'node:assert/strict';
import { jsonItemHeader, jsonItemList } from './jsonItems';

describe('JSON item lists', () => {
  const passage = (index: number): { id: string; path: string; score: number; text: string } => ({ id: `kb-${index}#0`, path: `kb/doc-${index}.md`, score: 0.9 - index / 100, text: `Passage ${index} about refunds and invoices, long enough to be ranked by the words of a question.` });

  it('finds each element of a retriever\'s answer, under a key or at the top, the bytes around them untouched', () => {
    for (const text of [JSON.stringify({ query: 'refunds', results: Array.from({ length: 6 }, (_, index) => passage(index)) }, null, 2), JSON.stringify(Array.from({ length: 6 }, (_, index) => passage(index)))]) {
      const list = jsonItemList(text)!;
      assert.equal(list.starts.length, 6);
      const items = list.starts.map((start, index) => text.slice(start, list.starts[index + 1] ?? list.end));
      assert.equal(text.slice(0, list.starts[0]) + items.join('') + text.slice(list.end), text);
      items.forEach((item, index) => assert.deepEqual(JSON.parse(item.replace(/,\s*$/, '')), passage(index)));
      assert.equal(jsonItemHeader(items[2]!), '{"id": "kb-2#0", "path": "kb/doc-2.md", "score": 0.88}');
    }
  });

  it('leaves series, rows and records without a passage to the JSON cleaner', () => {
    const series = { series: Array.from({ length: 8 }, (_, index) => ({ metric: 'proxy.bytes', tags: [`program:${index}`], pointlist: [[1, index]] })) };
    assert.equal(jsonItemList(JSON.stringify(series, null, 2)), undefined);
    assert.equal(jsonItemList(JSON.stringify(Array.from({ length: 3 }, (_, index) => passage(index)))), undefined, 'too few to rank');
    assert.equal(jsonItemList('{"results": [ not json'), undefined);
  });
});

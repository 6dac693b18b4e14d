import { strict as assert } from 'node:assert';
import { filter, scoreOnScale, scoreWithModel } from '../../../src/core/filter';
import { bundledModelFolder, loadEmbedder, type Embedder } from '../../../src/core/relevance';

/** A fake embedder that places each text on a fixed direction, and records what it was asked. */
class DirectionEmbedder implements Embedder {
  readonly name = 'fake/directions';
  readonly dimension = 2;
  readonly asked: string[] = [];
  constructor(private readonly directions: ReadonlyMap<string, readonly [number, number]>) {}
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.asked.push(...texts);
    return texts.map((text) => {
      const [x, y] = this.directions.get(text) ?? [0, 1];
      const length = Math.hypot(x, y);
      return new Float32Array([x / length, y / length]);
    });
  }
}

const QUESTION = 'read a json file into a dict';
// Both candidates share the question's words, as a retriever's candidates do.
const RIGHT = 'def load(path):\n    """Read a JSON file and return the dict it holds."""\n    with open(path) as handle:\n        return json.load(handle)';
const WRONG = 'def dump(data, path):\n    """Write a dict to a JSON file, not read it."""\n    with open(path, "w") as handle:\n        json.dump(data, handle)';

describe('filter: the 0–3 scale with a retrieval model', () => {
  it('words alone keep both look-alikes; with meaning the one far from the question falls below the threshold', async () => {
    const embedder = new DirectionEmbedder(new Map([[QUESTION, [1, 0]], [RIGHT, [0.95, 0.31]], [WRONG, [0.2, 0.98]]]));
    const candidates = [{ id: 'right', content: RIGHT }, { id: 'wrong', content: WRONG }];
    const lexical = await filter({ question: QUESTION, candidates });
    assert.deepEqual(lexical.kept.map((item) => item.id), ['right', 'wrong']);
    assert.equal(lexical.report.scoring, 'lexical');
    const fused = await filter({ question: QUESTION, candidates }, { embedder });
    assert.deepEqual(fused.kept.map((item) => item.id), ['right']);
    assert.equal(fused.report.scoring, 'fused');
    assert.match(fused.report.scorer, /lexical .* \+ model fake\/directions/);
    assert.match(fused.items[1]!.reason, /meaning similarity 0\.20 \(fake\/directions\); \d+% as relevant as the best candidate/);
    assert.ok(embedder.asked.includes(QUESTION), 'the question was embedded');
  });

  it('stays absolute: a batch of unrelated items scores low even though one of them is the best', async () => {
    const embedder = new DirectionEmbedder(new Map([[QUESTION, [1, 0]]]));
    const scores = await scoreWithModel(QUESTION, ['The office closes at six on Fridays.', 'Parking is behind the building.'], embedder);
    assert.ok(scores.every((entry) => entry.score < 0.9), JSON.stringify(scores));
  });

  it('with the shipped model, an item that matches the question scores on the same scale as the lexical one', async () => {
    const embedder = await loadEmbedder(bundledModelFolder()!);
    const documents = [RIGHT, 'The weather in Lisbon is mild in spring.'];
    const [right, weather] = await scoreWithModel(QUESTION, documents, embedder);
    assert.ok(right!.score >= 1.4, `a matching item is kept at balanced: ${right!.score}`);
    assert.ok(weather!.score < 0.9, `an unrelated one is not kept even at conservative: ${weather!.score}`);
    assert.ok(right!.score <= 3 && scoreOnScale(QUESTION, documents)[1]!.score === 0);
  });
});

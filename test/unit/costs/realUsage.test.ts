/** Real provider usage: Claude Code sessions' `usage` objects (../shared/data/clients/claude-code), read and priced as Herald reads an Anthropic endpoint's. */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_PRICES, priceFor, usageCost } from '../../../src/core/costs/prices';
import { addUsage, anthropicUsage, NO_USAGE, totalInputTokens } from '../../../src/core/costs/usage';
import { describeWithData, sharedPath } from '../../support/sharedData';

describeWithData('real Anthropic usage figures', function () {
  const folder = sharedPath('clients', 'claude-code', 'spotter');

  it('reads every reply of the long sessions, prices them by their model id, and counts every input token once', () => {
    for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.jsonl'))) {
      const seen = new Set<string>();
      let total = NO_USAGE;
      let raw = 0;
      let model = '';
      for (const line of fs.readFileSync(path.join(folder, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const event = JSON.parse(line) as { type?: string; message?: { id?: string; model?: string; usage?: Record<string, number> } };
        // One reply's blocks share message.id and repeat its usage: count it once.
        if (event.type !== 'assistant' || !event.message?.usage || !event.message.id || seen.has(event.message.id)) continue;
        seen.add(event.message.id);
        const usage = anthropicUsage(event.message.usage);
        assert.ok(usage, `${file}: a usage object Herald can read`);
        total = addUsage(total, usage);
        const figures = event.message.usage;
        raw += (figures.input_tokens ?? 0) + (figures.cache_read_input_tokens ?? 0) + (figures.cache_creation_input_tokens ?? 0);
        model = event.message.model ?? model;
      }
      assert.ok(seen.size > 0, `${file} has replies`);
      assert.equal(totalInputTokens(total), raw, 'fresh, cached and written input add up to what the provider counted');
      const price = priceFor(model, DEFAULT_PRICES);
      assert.ok(price, `the price table knows ${model}`);
      assert.ok(usageCost(total, price.price) > 0);
    }
  });
});

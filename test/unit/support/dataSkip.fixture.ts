/**
 * A spec run by sharedData.test.ts in a child mocha: one data test of each kind (a test, a
 * suite, a test that skips itself) and one that needs no data.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describeWithData, itWithData, sharedPath, skipWithoutData } from '../../support/sharedData';

describe('data skip fixture', () => {
  it('needs no data', () => {
    assert.equal(1 + 1, 2);
  });

  itWithData('reads the data folder', () => {
    assert.ok(fs.existsSync(sharedPath()));
  });

  it('skips itself without the data', function () {
    skipWithoutData(this);
    assert.ok(fs.existsSync(sharedPath()));
  });

  describeWithData('a suite over the data', () => {
    it('first', () => assert.ok(fs.existsSync(sharedPath())));
    it('second', () => assert.ok(fs.existsSync(sharedPath())));
  });
});

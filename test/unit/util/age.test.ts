import * as assert from 'node:assert/strict';
import { formatAge } from '../../../src/util/age';

describe('formatAge (the one age formatter: Video Jobs and Media views)', () => {
  it('counts a unit only once it is complete', () => {
    assert.equal(formatAge(-5), '0 s ago');
    assert.equal(formatAge(59_400), '59 s ago');
    assert.equal(formatAge(90_000), '1 min ago');
    assert.equal(formatAge(90 * 60_000), '1 h ago');
    assert.equal(formatAge(47.9 * 3_600_000), '47 h ago');
    assert.equal(formatAge(60 * 3_600_000), '2 d ago');
  });
});

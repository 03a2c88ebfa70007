import * as assert from 'node:assert/strict';
import { formatBytes } from '../../../src/util/bytes';

describe('formatBytes', () => {
  it('formats sizes as people read them', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(3098), '3.0 KB');
    assert.equal(formatBytes(5 * 1024 * 1024), '5.0 MB');
    assert.equal(formatBytes(2 * 1024 ** 3), '2.0 GB');
  });
});

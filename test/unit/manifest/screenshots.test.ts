// The pictures committed under media/screenshots/ (copies of the end-to-end suite's readme-*.png): real PNGs of
// the workbench, each at most 150 KB, and none of them packaged (.vscodeignore is an allowlist).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const folder = join(root, 'media', 'screenshots');
const MAX_BYTES = 150 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('README screenshots', () => {
  const files = readdirSync(folder);

  it('are exactly the ones the README shows', () => {
    const shown = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/\(media\/screenshots\/([\w-]+\.png)\)/g)].map((m) => m[1]);
    assert.ok(shown.includes('chat.png') && shown.includes('video-preview.png'), 'the chat and the job tree with a preview at least');
    assert.deepEqual(files.filter((f) => f.endsWith('.png')).sort(), [...new Set(shown)].sort());
  });

  for (const name of files) {
    it(`${name} is a PNG of at least 800×500 in at most 150 KB`, () => {
      const data = readFileSync(join(folder, name));
      assert.ok(data.subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG');
      assert.ok(data.readUInt32BE(16) >= 800 && data.readUInt32BE(20) >= 500, `${data.readUInt32BE(16)}×${data.readUInt32BE(20)}`);
      assert.ok(statSync(join(folder, name)).size <= MAX_BYTES, `${Math.round(statSync(join(folder, name)).size / 1024)} KB`);
    });
  }

  it('stay out of the .vsix', () => {
    const allowed = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n').filter((line) => line.startsWith('!'));
    assert.ok(!allowed.some((line) => /screenshots|media\/\*\*|media\/\*\.png/.test(line)), allowed.join(', '));
  });
});

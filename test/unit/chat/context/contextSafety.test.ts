// Attachments from a hostile repository: a .gitignore or a file's content must not freeze the host (each parser
// fed ~1 MB of adversarial input in a worker, a hang detector), special files are never read, a read stops at its
// limit, and what needs the user's yes (outside the workspace, a credential by name or by content) is recognised.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { consentQuestion, factsOf, insideFolders } from '../../../../src/util/fileConsent';
import { notAFileRefusal, readBounded, resolveFile } from '../../../../src/util/fileRead';
import { canonicalStars, GITIGNORE_LIMITS, IgnoreRules, withinBudget } from '../../../../src/chat/core/context/gitignore';
import { isSecretPath, secretInContent } from '../../../../src/util/credentials';
import { runInWorker } from '../../../util/inWorker';

const compiled = (file: string) => path.join(__dirname, '../../../../src/chat/core/context', file);
/** A hang detector, not a timing assertion: the work takes well under a second. */
const HANG_MS = 15_000;

/** ~`bytes` of `lines` repeated, one per line. */
function repeatLines(lines: readonly string[], bytes: number): string {
  const block = `${lines.join('\n')}\n`;
  return block.repeat(Math.ceil(bytes / block.length));
}

describe('context attachments from a hostile repository', () => {
  describe('.gitignore through the ignore package', () => {
    it('keeps git semantics: names, globs, anchors, folders, negation, nested files, escaped characters', () => {
      const rules = new IgnoreRules();
      rules.add('', 'node_modules/\n/dist\n*.log\n!keep.log\n\\#notes.txt\nout/**/*.map\n*.py[cod]\n');
      rules.add('/packages/web/', 'generated/\n!generated/keep.ts\n');
      assert.equal(rules.ignores('packages/a/node_modules/y.js'), true);
      assert.equal(rules.ignores('src/dist/x.ts'), false);
      assert.equal(rules.ignores('#notes.txt'), true);
      assert.equal(rules.ignores('lib/cache.pyc'), true);
      assert.equal(rules.ignores('out/a/b/c.map'), true);
      assert.equal(rules.ignores('packages/web/generated/api.ts'), true);
      assert.equal(rules.ignores('generated/api.ts'), false, 'a nested .gitignore applies only below its folder');
      assert.equal(rules.ignores('keep.log'), false);
    });

    it('applies no pattern over the wildcard budget, and rewrites *? as ?* (the same matches)', () => {
      assert.equal(withinBudget('**/node_modules/**'), true);
      assert.equal(withinBudget('src/**/*.test.ts'), true);
      assert.equal(withinBudget('*a*a*a*a*a*a*a*a*a*a*a*a*b'), false);
      assert.equal(withinBudget('a/**/b/**/c'), false);
      assert.equal(withinBudget('x'.repeat(GITIGNORE_LIMITS.patternChars + 1)), false);
      assert.equal(canonicalStars('*?*?.log'), '??*.log');
      assert.equal(canonicalStars('\\*?a'), '\\*?a');
      const rules = new IgnoreRules();
      rules.add('', '*a*a*a*a*a*a*a*a*a*a*a*a*b\nf*?.txt\n');
      assert.equal(rules.ignores('aaab'), false, 'the over-budget pattern is not applied');
      assert.equal(rules.ignores('fo.txt'), true);
      assert.equal(rules.ignores('f.txt'), false);
    });

    it('keeps a bounded number of rules, and judges a very deep path by its ancestor folder', () => {
      const rules = new IgnoreRules();
      rules.add('', Array.from({ length: GITIGNORE_LIMITS.rulesPerFolder }, (_, i) => `# comment ${i}\nfile${i}.txt`).join('\n'));
      rules.add('', 'late.txt\n');
      assert.equal(rules.ignores(`file${GITIGNORE_LIMITS.rulesPerFolder - 1}.txt`), true);
      assert.equal(rules.ignores('late.txt'), false, 'rules past the limit are not applied');
      const deep = new IgnoreRules();
      deep.add('', 'vendor/\n');
      assert.equal(deep.ignores(`vendor/${'a/'.repeat(200)}x.js`), true);
      assert.equal(deep.ignores(`src/${'a/'.repeat(200)}x.js`), false);
    });

    it('matches ~1 MB of adversarial .gitignore against adversarial paths without hanging (worker hang detector)', async function () {
      this.timeout(HANG_MS + 5000);
      const content = repeatLines(['*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a/**/a/**/a/**/a/**/b', '**/*/**/*x', '*?*?*?*?*?x', '**/*?*?*x', '*/*/**/x', '**/a*/*a*x', '[a]*[a]*[a]*x', '!*a*a*'], 1 << 20);
      const paths = ['a'.repeat(1000), 'a'.repeat(250) + 'c', `${'a'.repeat(30)}/`.repeat(31) + 'c', `${'a/'.repeat(2000)}c`, `a/${'a'.repeat(200)}/${'a'.repeat(200)}/c`, 'a'.repeat(1 << 16)];
      const ignored = await runInWorker(compiled('../../../../test/unit/chat/context/hostileWorkloads.js'), 'countIgnored', [content, paths], HANG_MS);
      assert.equal(typeof ignored, 'number');
    });
  });

  describe('secrets', () => {
    for (const name of ['.kube/config', 'home/.config/gcloud/application_default_credentials.json', 'credentials.json', 'infra/prod.tfstate', 'AuthKey_ABC123.p8', 'id_rsa_github', 'id_ed25519', 'id_ed25519_sk', 'id_ed25519.pub', '.npmrc', '.pypirc', '.netrc', '.git-credentials', 'tls/server.key', 'cert.p12', 'cert.pfx', '.env.local', '.ENV.production']) {
      it(`asks before attaching ${name}`, () => assert.equal(isSecretPath(name), true));
    }
    for (const name of ['src/env.ts', '.env.example', 'id_rsa_test.go', 'docs/keys.md', 'kube/config.go', 'monkey.ts']) {
      it(`attaches ${name} without asking`, () => assert.equal(isSecretPath(name), false));
    }

    it('finds credentials by content and names only the kind', () => {
      const cases: Array<[string, string]> = [
        ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n', 'a private key'],
        ['"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE', 'a private key'],
        ['aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n', 'an AWS access key'],
        [`token: ghp_${'a1B2'.repeat(9)}`, 'a GitHub token'],
        [`GH=github_pat_${'x'.repeat(82)}`, 'a GitHub token'],
        [`OPENAI_API_KEY=sk-proj-${'Ab1_'.repeat(12)}`, 'an OpenAI-style API key'],
        [`key = "sk-${'a1'.repeat(24)}"`, 'an OpenAI-style API key'],
        ['SLACK=xoxb-123456789012-abcdefghij', 'a Slack token'],
      ];
      for (const [text, kind] of cases) assert.equal(secretInContent(text), kind, text);
      for (const text of ['task-management-service-worker-thread-pool', 'sk-learn is a machine learning library', '-----BEGIN PUBLIC KEY-----', 'AKIA is a prefix', 'const ghp_ = 1;']) assert.equal(secretInContent(text), undefined, text);
    });

    for (const name of ['client_secret.json', 'secrets/client_secret_123-abc.apps.googleusercontent.com.json', 'infra/prod.tfvars', 'prod.auto.tfvars.json', '.pypirc.bak', '.npmrc.orig', '.env~', 'credentials.json.old', 'id_rsa.bak']) {
      it(`asks before attaching ${name}`, () => assert.equal(isSecretPath(name), true));
    }
    for (const name of ['src/client_secret.ts', 'variables.tf', 'notes.bak', 'readme.md.orig']) {
      it(`attaches ${name} without asking`, () => assert.equal(isSecretPath(name), false));
    }

    it('finds old-style npm and GitHub tokens, Google OAuth client secrets, PyPI tokens and S3-style keys of any provider', () => {
      const cases: Array<[string, string]> = [
        ['{"installed":{"client_id":"1.apps.googleusercontent.com","client_secret":"GOCSPX-AbCdEfGhIjKlMnOpQrStUvWxYz12"}}', 'a Google OAuth client secret'],
        [`[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc${'Ab1_'.repeat(12)}\n`, 'a PyPI token'],
        ['//registry.npmjs.org/:_authToken=0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b\n', 'an npm token'],
        ['//npm.example.com/:_authToken="4b5a6978-0f1e-2d3c-8a9b-0c1d2e3f4a5b"', 'an npm token'],
        ['Authorization: token 0123456789abcdef0123456789abcdef01234567', 'a GitHub token'],
        ['GITHUB_TOKEN=0123456789abcdef0123456789abcdef01234567', 'a GitHub token'],
        ['[wasabi]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n', 'an S3-style secret key'],
        ['SPACES_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"', 'an S3-style secret key'],
        ['{"secretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}', 'an S3-style secret key'],
      ];
      for (const [text, kind] of cases) assert.equal(secretInContent(text), kind, text);
      for (const text of ['the token 0123 is short', 'commit 0123456789abcdef0123456789abcdef01234567', 'secret_access_key = ${SECRET}', '_authToken=${NPM_TOKEN}', 'GOCSPX- docs']) assert.equal(secretInContent(text), undefined, text);
    });

    it('scans ~1 MB of near-misses without hanging, and still finds a key at the end (worker hang detector)', async function () {
      this.timeout(2 * HANG_MS + 5000);
      const nearMisses = repeatLines([`-----BEGIN ${'A '.repeat(30)}PUBLIC KEY-----`, `AKIA${'A'.repeat(15)}-`, `sk-${'a'.repeat(39)}!`, `sk-proj-${'a'.repeat(31)}!`, 'xoxb-12345', `ghp_${'a'.repeat(35)}`, `github_pat_${'_'.repeat(59)}`, `AIza${'-'.repeat(34)}`, '-----BEGIN '.repeat(8), `token${' '.repeat(30)}${'a'.repeat(39)}`, `_authToken=${'a'.repeat(30)}`, `secret_access_key=${'A'.repeat(39)}`, `GOCSPX-${'a'.repeat(27)}`, `pypi-AgEIcHlwaS5vcmc${'a'.repeat(10)}!`], 1 << 20);
      assert.equal(await runInWorker(path.join(__dirname, '../../../../src/util/credentials.js'), 'secretInContent', [nearMisses], HANG_MS), undefined);
      assert.equal(await runInWorker(path.join(__dirname, '../../../../src/util/credentials.js'), 'secretInContent', [`${nearMisses}AKIAIOSFODNN7EXAMPLE`], HANG_MS), 'an AWS access key');
    });
  });

  describe('consent', () => {
    const roots = ['/w/project'];

    it('knows inside from outside by real paths', () => {
      assert.equal(insideFolders('/w/project/src/a.ts', roots), 'src/a.ts');
      assert.equal(insideFolders('/w/project', roots), '');
      assert.equal(insideFolders('/w/project-other/a.ts', roots), undefined);
      assert.equal(insideFolders('/w/project/../secret', roots), undefined);
    });

    it('asks about a link out of the workspace naming the real path, and judges the secret by the real name too', () => {
      const facts = factsOf('docs/setup-notes.md', '/w/project/docs/setup-notes.md', '/home/u/.ssh/id_ed25519', roots);
      assert.deepEqual(facts, { display: 'docs/setup-notes.md', realPath: '/home/u/.ssh/id_ed25519', linked: true, outside: true, secretName: true });
      assert.equal(consentQuestion(facts), 'docs/setup-notes.md links to /home/u/.ssh/id_ed25519, outside the workspace. It looks like it holds secrets (keys, passwords or tokens). Attaching it sends its content to the gateway.');
      const inside = factsOf('notes.md', '/w/project/notes.md', '/w/project/.env', roots);
      assert.equal(inside.secretName, true, 'a link inside the workspace to .env is a secret too');
      assert.equal(consentQuestion(factsOf('a.ts', '/w/project/a.ts', '/w/project/a.ts', roots)), undefined);
      assert.equal(consentQuestion(factsOf('/tmp/x.txt', '/tmp/x.txt', '/tmp/x.txt', roots)), '/tmp/x.txt is outside the workspace. Attaching it sends its content to the gateway.');
    });

    it('says which kind of secret the content holds, never the secret', () => {
      const facts = factsOf('src/config.ts', '/w/project/src/config.ts', '/w/project/src/config.ts', roots);
      const question = consentQuestion(facts, secretInContent('const key = "AKIAIOSFODNN7EXAMPLE";'));
      assert.equal(question, 'src/config.ts contains what looks like an AWS access key. Attaching it sends its content to the gateway.');
    });
  });

  describe('the bounded reader', () => {
    let dir: string;
    before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-read-'))));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reads a file up to its limit, and refuses one byte more', async () => {
      fs.writeFileSync(path.join(dir, 'ten.txt'), '0123456789');
      assert.deepEqual(await readBounded(path.join(dir, 'ten.txt'), 10), { ok: true, bytes: Buffer.from('0123456789') });
      assert.deepEqual(await readBounded(path.join(dir, 'ten.txt'), 9), { ok: false, tooLarge: true, atLeast: 10 });
    });

    it('stops at the limit whatever stat said (a /proc file says 0 bytes)', async function () {
      if (!fs.existsSync('/proc/self/status')) this.skip();
      assert.equal(fs.statSync('/proc/self/status').size, 0);
      const read = await readBounded('/proc/self/status', 16);
      assert.ok(!read.ok && 'tooLarge' in read && read.atLeast === 17, JSON.stringify(read));
    });

    it('follows a link to /dev/zero and refuses the device without reading it', async function () {
      if (!fs.existsSync('/dev/zero')) this.skip();
      fs.symlinkSync('/dev/zero', path.join(dir, 'zero.txt'));
      const resolved = await resolveFile(path.join(dir, 'zero.txt'));
      assert.deepEqual(resolved, { realPath: '/dev/zero', kind: 'device', size: 0 });
      assert.deepEqual(await readBounded('/dev/zero', 1024), { ok: false, kind: 'device' });
      assert.equal(notAFileRefusal('zero.txt', 'device', '/dev/zero'), 'zero.txt (it links to /dev/zero) is a device, not a regular file; only files can be attached.');
    });

    it('opens a named pipe without waiting for a writer, and refuses it', async function () {
      const fifo = path.join(dir, 'pipe');
      try {
        execFileSync('mkfifo', [fifo]);
      } catch {
        this.skip();
      }
      assert.equal((await resolveFile(fifo)).kind, 'pipe');
      assert.deepEqual(await readBounded(fifo, 1024), { ok: false, kind: 'pipe' });
    });
  });
});

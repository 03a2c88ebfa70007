import { strict as assert } from 'node:assert';
import { languageIdFor } from '../../../src/chat/core/fenceLanguage';

const KNOWN = ['typescript', 'python', 'shellscript', 'rust', 'plaintext', 'go'];

describe('languageIdFor (Open in New File)', () => {
  it('takes the fence name when VS Code knows it, case and spaces aside', () => {
    assert.equal(languageIdFor(' Rust ', KNOWN), 'rust');
    assert.equal(languageIdFor('python', KNOWN), 'python');
  });

  it('maps a common alias to a language VS Code knows', () => {
    assert.equal(languageIdFor('ts', KNOWN), 'typescript');
    assert.equal(languageIdFor('bash', KNOWN), 'shellscript');
    assert.equal(languageIdFor('golang', KNOWN), 'go');
  });

  it('falls back to plain text for no name, an unknown one, an alias of an absent language, or an inherited key', () => {
    assert.equal(languageIdFor('', KNOWN), 'plaintext');
    assert.equal(languageIdFor('cobol', KNOWN), 'plaintext');
    assert.equal(languageIdFor('rb', KNOWN), 'plaintext', 'ruby is not installed');
    assert.equal(languageIdFor('constructor', KNOWN), 'plaintext');
    assert.equal(languageIdFor('__proto__', KNOWN), 'plaintext');
  });
});

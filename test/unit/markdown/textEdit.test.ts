import * as assert from 'node:assert/strict';
import { findTextEdit } from '../../../src/webview/markdown/textEdit';

describe('findTextEdit (an open block that only grew is edited in place)', () => {
  it('finds text that grew at the end of a paragraph', () => {
    assert.deepEqual(findTextEdit('<p>foo</p>\n', '<p>foo bar</p>\n'), { run: 0, before: 'foo', after: 'foo bar' });
    assert.deepEqual(findTextEdit('<p>x<br>\n</p>', '<p>x<br>\ny</p>'), { run: 1, before: '\n', after: '\ny' }, 'the text after a hard break');
  });

  it('counts the text runs before the change: in a list item after emphasis, in a table cell', () => {
    assert.deepEqual(findTextEdit('<ul>\n<li>a <em>b</em> c</li>\n</ul>\n', '<ul>\n<li>a <em>b</em> cd</li>\n</ul>\n'), {
      run: 3, // after "\n", "a " and "b" (the "\n" runs between tags count: each is a text node)
      before: ' c',
      after: ' cd',
    });
    const table = (cell: string) => `<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>${cell}</td>\n</tr>\n</tbody>\n</table>\n`;
    const edit = findTextEdit(table('x'), table('xy'));
    assert.equal(edit?.before, 'x');
    assert.equal(edit?.after, 'xy');
    assert.equal(edit?.run, table('x').slice(0, table('x').indexOf('<td>') + 4).split(/<[^>]*>/).filter((run) => run !== '').length);
  });

  it('decodes the four entities our HTML uses, also when the change splits one', () => {
    assert.deepEqual(findTextEdit('<p>a &amp; b</p>\n', '<p>a &lt; b &quot;c&quot;</p>\n'), { run: 0, before: 'a & b', after: 'a < b "c"' });
    assert.equal(findTextEdit('<p>a &copy;</p>', '<p>a &copy; b</p>'), undefined, 'an entity we never emit');
  });

  it('gives up when a tag or an attribute changed, or a run appears or empties', () => {
    assert.equal(findTextEdit('<p>foo</p>\n', '<p>foo<em>x</em></p>\n'), undefined, 'a new element');
    assert.equal(findTextEdit('<p><a href="https://a.b">https://a.b</a></p>', '<p><a href="https://a.bc">https://a.bc</a></p>'), undefined, 'a link target');
    assert.equal(findTextEdit('<p><em>x</em></p>', '<p><em>x</em> y</p>'), undefined, 'a new text run after an element');
    assert.equal(findTextEdit('<p>ab</p>', '<p></p>'), undefined, 'a run that empties is no text node any more');
    assert.equal(findTextEdit('<p>same</p>', '<p>same</p>'), undefined);
    assert.equal(findTextEdit('<h1>a</h1>\n', '<h2>a</h2>\n'), undefined);
  });
});

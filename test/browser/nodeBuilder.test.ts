import assert from 'node:assert/strict';
import { fuzzDocuments } from './fuzzCorpus';
import { loadCorpus } from './harness';
import { PAYLOADS } from './hostilePayloads';
import { useSuitePage } from './suitePage';

type MD = typeof import('./markdownTestEntry');

/** Raw HTML handed to the builder directly, past markdown-it: what it must never turn into live markup. */
const RAW_HOSTILE = [
  ...PAYLOADS,
  '<a data-href="javascript:window.__pwned=1" tabindex="0" role="link">js</a>',
  '<a data-href=" java\tscript:window.__pwned=1">spaced js</a><a data-href="&#106;avascript:window.__pwned=1">entity js</a>',
  '<a data-href="data:text/html,x">data</a><a data-href="vbscript:x">vb</a><a data-href="file:///etc/passwd">file</a>',
  '<a data-href="https://ok.example/" href="javascript:window.__pwned=1" onclick="window.__pwned=1">href and handler</a>',
  '<A DATA-HREF="HTTPS://ok.example/" ONCLICK="window.__pwned=1" STYLE="color:red">upper case</A>',
  '<button type="submit" onclick="window.__pwned=1">submit</button><button type="button" formaction="x">ok</button>',
  '<a tabindex="-1" role="button">focus</a><span tabindex="0" role="link">span link</span>',
  '<span class="evil hljs-keyword md-x javascript:x">classes</span><span class="">empty</span><span class="   ">blank</span>',
  '<span title="x/>y">self close</span><span title="a--&gt;b">comment end</span><span title="a&lt;/style&gt;b">raw end</span>',
  '<span title="  padded  " aria-label=" lbl ">trimmed</span><span title="first" title="second">dup</span>',
  '<span class="a onmouseover="window.__pwned=1">unterminated quote',
  '<img src=x onerror=window.__pwned=1><span class=hljs-string onclick=window.__pwned=1>unquoted</span>',
  '<svg><a data-href="javascript:1"><set attributeName="href" to="javascript:window.__pwned=1"/></a></svg>',
  '<div><template><img src=x onerror=window.__pwned=1></template></div><noscript><p title="</noscript><img src=x onerror=window.__pwned=1>"></noscript>',
  '<p>&lt;script&gt;window.__pwned=1&lt;/script&gt; &amp;lt; &#60;b&#62; &#x3c;i&#x3E; &#0; &#x110000; &#xD800; &unknown; &amp</p>',
  '</p></div></span>stray closers<p>unclosed <em>inline',
  '<style>p{}</style><script>window.__pwned=1</script><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
];

const ALLOWED_TAGS = ['A', 'BLOCKQUOTE', 'BR', 'BUTTON', 'CODE', 'DEL', 'DIV', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'LI', 'OL', 'P', 'PRE', 'S', 'SPAN', 'STRONG', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL'];

describe('the node builder in Chromium (allowlist instead of DOMPurify)', function () {
  this.timeout(60_000);
  const suite = useSuitePage();

  it('gives the DOM DOMPurify gave for everything the renderer writes: corpus, fuzzed and hostile documents', async () => {
    const texts = [...loadCorpus().map((doc) => doc.text), ...fuzzDocuments(40, 3).map((doc) => doc.text), ...PAYLOADS];
    const differences = await suite.page.evaluate((texts) => {
      const md = (window as unknown as { MD: MD }).MD;
      const renderer = new md.MarkdownRenderer();
      const build = md.createBuilder(document);
      const sanitize = md.createSanitizer(window);
      const found: string[] = [];
      const html = (fragment: DocumentFragment) => {
        const host = document.createElement('div');
        host.append(fragment);
        return host.innerHTML;
      };
      for (const text of texts) {
        // Each block as the streaming renderer builds it (code line by line too), and the whole document at once.
        const parsed = renderer.parse(text, Object.create(null) as Record<string, never>, true);
        const pieces = [renderer.renderDocument(text)];
        for (const block of parsed.blocks) {
          const view = renderer.renderBlock(block, parsed.env);
          if (view.kind === 'html') pieces.push(view.html);
          else pieces.push(view.shell, ...view.lines, view.lines.join(''));
        }
        for (const piece of pieces) {
          const built = html(build(piece));
          const reference = html(sanitize(piece));
          if (built !== reference) found.push(`${JSON.stringify(piece.slice(0, 120))}\n  built ${built.slice(0, 200)}\n  want  ${reference.slice(0, 200)}`);
        }
      }
      return found;
    }, texts);
    assert.deepEqual(differences, []);
  });

  it('creates only allow-listed tags, attributes, classes and http(s) links from raw hostile HTML, and nothing runs', async () => {
    const result = await suite.page.evaluate(
      ({ payloads, allowedTags }) => {
        const md = (window as unknown as { MD: MD }).MD;
        const build = md.createBuilder(document);
        const problems: string[] = [];
        const hosts: HTMLElement[] = [];
        for (const payload of payloads) {
          const host = document.body.appendChild(document.createElement('div'));
          hosts.push(host);
          host.append(build(payload));
          for (const element of Array.from(host.querySelectorAll('*'))) {
            if (!allowedTags.includes(element.tagName)) problems.push(`<${element.tagName}> from ${payload}`);
            for (const { name, value } of Array.from(element.attributes)) {
              if (md.allowedAttributeValue(element.localName, name, value) !== value) problems.push(`${name}="${value}" on <${element.localName}> from ${payload}`);
              if (name === 'data-href' && !/^https?:\/\//i.test(value)) problems.push(`data-href=${value}`);
            }
          }
        }
        for (const host of hosts) for (const clickable of Array.from(host.querySelectorAll<HTMLElement>('a, button, span'))) clickable.click();
        const texts = hosts.map((host) => host.innerHTML);
        return { problems, texts };
      },
      { payloads: RAW_HOSTILE, allowedTags: ALLOWED_TAGS },
    );
    assert.deepEqual(result.problems, []);
    await suite.page.waitForTimeout(200);
    assert.equal(await suite.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.deepEqual(suite.served.strayRequests, []);
    const byPayload = new Map(RAW_HOSTILE.map((payload, i) => [payload, result.texts[i]]));
    // What each rule keeps and drops, spelled out for the cases the corpus never writes.
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 3]), '<a data-href="https://ok.example/">href and handler</a>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 4]), '<a data-href="HTTPS://ok.example/">upper case</a>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 5]), '<button>submit</button><button type="button">ok</button>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 6]), '<a>focus</a><span>span link</span>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 7]), '<span class="hljs-keyword md-x">classes</span><span>empty</span><span>blank</span>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 8]), '<span>self close</span><span>comment end</span><span>raw end</span>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 9]), '<span title="padded" aria-label="lbl">trimmed</span><span title="first">dup</span>');
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 10]), '&lt;span class="a onmouseover="window.__pwned=1"&gt;unterminated quote');
    assert.equal(
      byPayload.get(RAW_HOSTILE[PAYLOADS.length + 14]),
      '<p>&lt;script&gt;window.__pwned=1&lt;/script&gt; &amp;lt; &lt;b&gt; &lt;i&gt; \uFFFD \uFFFD \uFFFD &amp;unknown; &amp;amp</p>',
    );
    assert.equal(byPayload.get(RAW_HOSTILE[PAYLOADS.length + 15]), 'stray closers<p>unclosed <em>inline</em></p>');
  });
});

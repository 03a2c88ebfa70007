// The hostile-reply corpus: the browser stage renders it in a page under the panel's CSP (security.test.ts), the e2e
// suite streams it through the real chat panel (test/e2e/3b-hostile.test.ts).

/** Hostile model output. `LOOP` becomes a loopback URL on the test server, so any fetch or navigation is counted. */
export const PAYLOADS = [
  `<script>window.__pwned = 'script'</script>`,
  `<img src="LOOP/img" onerror="window.__pwned = 'img'">`,
  `<iframe src="javascript:parent.__pwned = 'iframe'"></iframe><iframe srcdoc="<script>parent.__pwned = 'srcdoc'</script>"></iframe>`,
  `<object data="LOOP/object"></object><embed src="LOOP/embed">`,
  `<form action="LOOP/form" id="f"><button>go</button></form><input autofocus onfocus="window.__pwned = 'input'">`,
  `<style>body { background: url(LOOP/style) }</style><link rel="stylesheet" href="LOOP/link">`,
  `<svg><script>window.__pwned = 'svg'</script></svg><svg onload="window.__pwned = 'svgload'"><image href="LOOP/svgimage"/></svg>`,
  `<math><mtext><table><mglyph><style><img src=LOOP/mxss onerror="window.__pwned = 'mxss'">`,
  `<meta http-equiv="refresh" content="0;url=LOOP/meta"><base href="LOOP/base/">`,
  `<details open ontoggle="window.__pwned = 'details'">x</details><video src="LOOP/video"></video><img srcset="LOOP/srcset 1x">`,
  `<a href="javascript:window.__pwned = 'rawa'">raw</a> <a href="LOOP/rawanchor">raw2</a>`,
  `[md](javascript:window.__pwned='md') [md2](JaVaScRiPt:window.__pwned='md2') [md3](java&#115;cript:window.__pwned='md3')`,
  `[md4](&#106;avascript:window.__pwned='md4') [vb](vbscript:msgbox(1)) [data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+)`,
  `[spaced](java\tscript:window.__pwned='tab') [file](file:///etc/passwd) <javascript:window.__pwned='autolink'>`,
  `![remote](LOOP/mdimg) ![js](javascript:window.__pwned='mdimg') ![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9InBhcmVudC5fX3B3bmVkPTEiLz4=)`,
  `[ref]: javascript:window.__pwned='ref'\n\n[ref] and [ok]\n\n[ok]: LOOP/refok "t\\" onmouseover=\\"window.__pwned='title'"`,
  '```js" onmouseover="window.__pwned=\'fence\'\ncode\n```\n\n```<img src=LOOP/info onerror=window.__pwned=\'info\'>\nx\n```',
  '`<img src=LOOP/inlinecode onerror=window.__pwned=1>` and <https://127.0.0.1/x"onmouseover="window.__pwned=1>',
  `[title](LOOP/titled "x\\" onclick=\\"window.__pwned='q'") LOOP/bare-link **<img src=LOOP/bold>**`,
  `| <img src=LOOP/table> | b |\n|---|---|\n| <script>window.__pwned='cell'</script> | [c](javascript:window.__pwned='cellink') |`,
  `> <iframe src="LOOP/quote"></iframe>\n> - <img src=LOOP/listimg onerror=window.__pwned=1>`,
];

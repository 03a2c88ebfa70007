// The markdown module as the browser tests and the render bench load it (`window.MD`): the module itself, its node
// builder's parts, and DOMPurify configured with the allowlist the renderer used before it built nodes itself, kept as
// an independent reference (the builder must give the same DOM) and as the bench's naive baseline.
export * from '../../src/webview/markdown/index';
export { createBuilder, allowedAttributeValue, decodeEntities } from '../../src/webview/markdown/nodeBuilder';
export { createSanitizer } from './referenceSanitizer';

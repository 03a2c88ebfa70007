// UI adapter: the actions on a result link: Open Result (in the browser), Preview (in a webview), Copy URL, and
// Copy Job ID. Only links that pass the one link rule (http/https, no credentials) are opened or previewed.
import type * as vscode from 'vscode';
import { resolveFinalUrl } from '../../gateway/resultFetch';
import { resultFetchOptionsFor, resultLinkOf, targetOf, type VideoCommandContext } from './sharedCommands';

export async function openResult(ctx: VideoCommandContext, argument?: unknown): Promise<boolean> {
  const link = resultLinkOf(ctx, argument);
  return link ? ctx.ui.openExternal(link.url) : false;
}

/**
 * Plays the result in a webview whose media-src allows one origin: where the link finally leads after redirects
 * (asked through the API's proxy but without the key, as the webview will fetch it). When that cannot be found out, the link itself is
 * played and the page says why. A result kept on disk plays from there.
 */
export async function previewResult(ctx: VideoCommandContext, argument?: unknown): Promise<vscode.WebviewPanel | undefined> {
  const link = resultLinkOf(ctx, argument);
  if (!link) return undefined;
  const { record, index } = link.target;
  // The kept copy first: it plays after the link has expired, and costs no download.
  const kept = index === 0 ? ctx.service.kept?.keptFile(record.key) : undefined;
  if (kept && ctx.service.kept) {
    void ctx.service.kept.touch(kept, Date.now());
    return ctx.previews.showFile(record, index, kept, ctx.service.kept.folder);
  }
  const { proxy, proxyStrictSSL } = await resultFetchOptionsFor(ctx, record);
  const resolved = await ctx.ui.withProgress(
    'Opening the preview…',
    async (_report, signal): Promise<{ url: string; problem?: string }> => {
      try {
        const { finalUrl, status } = await resolveFinalUrl(link.url, { proxy, proxyStrictSSL, signal, timeoutMs: 15_000 });
        return status < 400 ? { url: finalUrl } : { url: link.url, problem: `it answered HTTP ${status}` };
      } catch (error) {
        return { url: link.url, problem: error instanceof Error ? error.message : String(error) };
      }
    },
    { cancellable: true, inStatusBar: true },
  );
  return ctx.previews.show(record, index, resolved.url, resolved.problem && `Could not check where the link leads (${resolved.problem}); it may not play.`);
}

export async function copyResultUrl(ctx: VideoCommandContext, argument?: unknown): Promise<boolean> {
  const target = targetOf(ctx, argument);
  const url = target?.record.resultUrls[target.index];
  if (!target || url === undefined) return false;
  await ctx.ui.copy(url);
  ctx.ui.status('Copied the result link.');
  return true;
}

export async function copyJobId(ctx: VideoCommandContext, argument?: unknown): Promise<boolean> {
  const target = targetOf(ctx, argument);
  if (!target) return false;
  if (!target.record.id) {
    void ctx.ui.notify('info', 'The gateway has not given this job an id.');
    return false;
  }
  await ctx.ui.copy(target.record.id);
  ctx.ui.status(`Copied job id ${target.record.id}.`);
  return true;
}

// UI adapter: @gateway in VS Code's own chat. /image, /video, /speak, /models and /usage run the same tools as agents call
// (toolRunner, on the chat panel's ports), so every request goes to the user's gateway and no Copilot request is
// made. It streams progress, then an anchor to the saved file and buttons (Open Preview, Reveal in Video Jobs, Save
// to Workspace). /video follows the job to its end while the user waits; a user who leaves finds it in Video Jobs.
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../util/html';
import { checkExternalUrl } from '../../util/externalUrl';
import type { VideoJob } from '../../videos/core/api';
import { runTool, type ToolOutcome, type ToolPorts } from '../core/toolRunner';
import { monthName } from '../core/usageSummary';
import { TOOL_NAMES } from '../core/toolSpecs';
import { BUTTON_COMMANDS, REVEAL_JOB_COMMAND } from './commands';
import { signalOf } from './tokenSignal';


const HELP = [
  '`@gateway` sends these to your model gateway (no Copilot request is made):',
  '- `/image <prompt>` generates an image',
  '- `/video <prompt>` submits a video job and follows it',
  '- `/speak <text>` reads the text aloud',
  '- `/models` lists the gateway\'s models by kind',
  '- `/usage` shows this month\'s spend by model (from the usage ledger; nothing is sent)',
].join('\n');

export class GatewayParticipant {
  constructor(private readonly ports: ToolPorts) {}

  async handle(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const text = request.prompt.trim();
    const cancel = signalOf(token);
    try {
      switch (request.command) {
        case 'image':
          return await this.media('image', text, stream, cancel.signal);
        case 'speak':
          return await this.media('speech', text, stream, cancel.signal);
        case 'video':
          return await this.video(text, stream, token, cancel.signal);
        case 'models':
          return this.done(await runTool(TOOL_NAMES.listModels, text ? { kind: text } : {}, this.ports, cancel.signal), stream, (outcome) => this.models(outcome, stream));
        case 'usage':
          return this.done(await runTool(TOOL_NAMES.usageSummary, {}, this.ports, cancel.signal), stream, (outcome) => this.usage(outcome, stream));
        default:
          stream.markdown(HELP);
          return {};
      }
    } finally {
      cancel.dispose();
    }
  }

  private async media(kind: 'image' | 'speech', text: string, stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<vscode.ChatResult> {
    if (!text) return this.fail(stream, kind === 'image' ? 'Type what the image shows after `/image`.' : 'Type the text to read after `/speak`.');
    stream.progress(kind === 'image' ? 'Generating the image…' : 'Synthesizing speech…');
    const outcome = kind === 'image' ? await runTool(TOOL_NAMES.generateImage, { prompt: text }, this.ports, signal) : await runTool(TOOL_NAMES.synthesizeSpeech, { text }, this.ports, signal);
    return this.done(outcome, stream, () => {
      const { media, file } = outcome;
      if (!media || !file) return;
      stream.markdown(`${kind === 'image' ? 'Image' : 'Speech'} from ${escapeMarkdown(media.model)}, saved as `);
      stream.anchor(vscode.Uri.file(file.path), media.fileName);
      stream.markdown(' (also in the Media view).\n\n');
      stream.button({ command: BUTTON_COMMANDS.showMedia, title: 'Open Preview', arguments: [{ entry: media.entryId }] });
      stream.button({ command: BUTTON_COMMANDS.saveMedia, title: 'Save to Workspace', arguments: [{ entry: media.entryId, index: 0 }] });
    });
  }

  private async video(text: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, signal: AbortSignal): Promise<vscode.ChatResult> {
    if (!text) return this.fail(stream, 'Type what the video shows after `/video`.');
    stream.progress('Submitting the video job…');
    const submitted = await runTool(TOOL_NAMES.submitVideo, { prompt: text }, this.ports, signal);
    if (!submitted.ok || !submitted.job) return this.fail(stream, submitted.text);
    const key = submitted.job.key;
    stream.markdown(`Video job submitted to ${escapeMarkdown(submitted.job.model)}. It is in the Video Jobs view; you may leave: it is announced when it ends.\n\n`);
    stream.button({ command: REVEAL_JOB_COMMAND, title: 'Reveal in Video Jobs', arguments: [key] });
    const job = await this.follow(key, stream, token);
    if (!job) {
      stream.markdown('\n\nStopped waiting; the job goes on in Video Jobs.');
      return {};
    }
    if (job.state === 'failed') return this.fail(stream, `The video job failed: ${job.detail}`);
    stream.markdown('\n\nThe video is ready: ');
    if (job.keptFile) stream.anchor(vscode.Uri.file(job.keptFile), 'the kept file');
    else if (job.url) this.resultLink(job.url, stream);
    stream.markdown('.\n\n');
    stream.button({ command: BUTTON_COMMANDS.previewVideo, title: 'Open Preview', arguments: [key] });
    return {};
  }

  /** The gateway's result link as an anchor only when it passes the one rule for links (util/externalUrl.ts). */
  private resultLink(url: string, stream: vscode.ChatResponseStream): void {
    const checked = checkExternalUrl(url);
    if (checked.ok) stream.anchor(vscode.Uri.parse(checked.url.toString(), true), 'the result link');
    else stream.markdown(escapeMarkdown(`its link is not offered. ${checked.reason}`));
  }

  /** Waits for the job to end, showing its status as it changes; undefined when the user stops waiting. */
  private follow(key: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<VideoJob | undefined> {
    const videos = this.ports.videos();
    return new Promise((resolve) => {
      let lastDetail = '';
      const check = (): boolean => {
        const job = videos.job(key);
        if (!job) return finish(undefined), true;
        if (job.state !== 'pending') return finish(job), true;
        if (job.detail !== lastDetail) stream.progress(`Video job: ${(lastDetail = job.detail)}…`);
        return false;
      };
      const subscriptions: Array<{ dispose(): void }> = [];
      const finish = (job: VideoJob | undefined) => {
        for (const s of subscriptions.splice(0)) s.dispose();
        resolve(job);
      };
      if (check()) return;
      subscriptions.push(
        videos.onDidChange((keys) => void (keys.includes(key) && check())),
        token.onCancellationRequested(() => finish(undefined)),
      );
    });
  }

  private models(outcome: ToolOutcome, stream: vscode.ChatResponseStream): void {
    const groups = Object.entries(outcome.models ?? {});
    if (groups.length === 0) stream.markdown(escapeMarkdown(outcome.text));
    for (const [kind, ids] of groups) stream.markdown(`**${escapeMarkdown(kind)}**: ${ids.map(escapeMarkdown).join(', ')}\n\n`);
  }

  /** The month's spend as a table (the ledger's wording: "unknown", "≥ $…"), and the dashboard's button. */
  private usage(outcome: ToolOutcome, stream: vscode.ChatResponseStream): void {
    const usage = outcome.usage;
    if (!usage || usage.models.length === 0) stream.markdown(escapeMarkdown(outcome.text));
    else {
      const rows = usage.models.map((m) => `| ${escapeMarkdown(m.model)} | ${escapeMarkdown(m.cost)} | ${m.requests} | ${m.tokens.toLocaleString('en-US')} |`);
      const total = `| **Total** | **${escapeMarkdown(usage.total.cost)}** | ${usage.total.requests} | ${usage.total.tokens.toLocaleString('en-US')} |`;
      stream.markdown([`**${monthName(usage.since)}**, every window and profile of this machine:`, '', '| Model | Spend | Requests | Tokens |', '|---|---:|---:|---:|', ...rows, total, ''].join('\n'));
      if (usage.total.unknownCost > 0) stream.markdown(`\n${usage.total.unknownCost} of these requests have no known cost (the gateway published no price): "unknown" and "≥" say so.\n`);
    }
    stream.button({ command: BUTTON_COMMANDS.showUsage, title: 'Show Usage' });
  }

  private done(outcome: ToolOutcome, stream: vscode.ChatResponseStream, render: (outcome: ToolOutcome) => void): vscode.ChatResult {
    if (!outcome.ok) return this.fail(stream, outcome.text);
    render(outcome);
    return {};
  }

  private fail(stream: vscode.ChatResponseStream, message: string): vscode.ChatResult {
    stream.markdown(escapeMarkdown(message));
    return { errorDetails: { message } };
  }
}

// @gateway in VS Code's own chat, driven directly with a recording response stream: the video's result link is the
// gateway's, so it becomes an anchor only when it passes the one link rule (util/externalUrl.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MediaApi } from '../../../src/media/core/api';
import type { VideoApi, VideoJob } from '../../../src/videos/core/api';
import { GatewayParticipant } from '../../../src/lmTools/vscode/gatewayParticipant';
import type { ToolPorts } from '../../../src/lmTools/core/toolRunner';

/** The parts of a response the participant streams: its Markdown and its anchors' targets. */
function recordingStream(): { stream: vscode.ChatResponseStream; markdown: string[]; anchors: string[] } {
  const markdown: string[] = [];
  const anchors: string[] = [];
  const stream = {
    markdown: (value: string | vscode.MarkdownString) => void markdown.push(typeof value === 'string' ? value : value.value),
    anchor: (value: vscode.Uri | vscode.Location) => void anchors.push(value instanceof vscode.Uri ? value.toString(true) : value.uri.toString(true)),
    progress: () => undefined,
    button: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  return { stream, markdown, anchors };
}

function portsWith(done: VideoJob): ToolPorts {
  const videos: Pick<VideoApi, 'submit' | 'job' | 'onDidChange' | 'reveal'> = {
    submit: async () => ({ ...done, state: 'pending', detail: 'queued' }),
    job: () => done,
    onDidChange: () => ({ dispose() {} }),
    reveal: async () => undefined,
  };
  return { media: () => ({}) as MediaApi, videos: () => videos as VideoApi, models: async () => [], defaultModel: () => undefined };
}

describe('@gateway /video: the result link', () => {
  const request = { prompt: 'waves', command: 'video' } as unknown as vscode.ChatRequest;
  const token = new vscode.CancellationTokenSource().token;

  it('anchors an https link', async () => {
    const { stream, anchors } = recordingStream();
    await new GatewayParticipant(portsWith({ key: 'k1', model: 'm', state: 'complete', detail: 'completed', url: 'https://cdn.example/v.mp4' })).handle(request, stream, token);
    assert.deepEqual(anchors, ['https://cdn.example/v.mp4']);
  });

  it('anchors no command:, file:, javascript: or credential-bearing link, and says why', async () => {
    for (const url of ['command:workbench.action.terminal.new', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@cdn.example/v.mp4']) {
      const { stream, markdown, anchors } = recordingStream();
      await new GatewayParticipant(portsWith({ key: 'k1', model: 'm', state: 'complete', detail: 'completed', url })).handle(request, stream, token);
      assert.deepEqual(anchors, [], url);
      assert.match(markdown.join(''), /its link is not offered\\. Refused to open the link/, url);
    }
  });
});

// Entry point of the streaming speech player (bundled to dist/webview/player.js): says whether it can play the audio
// as it arrives, appends the pieces the host sends (streamingAudio.ts), then moves to the kept file so every part can
// be sought, and shows Save and Open once the entry is kept. A failure is said in words. Every message from the host
// is checked against the player's protocol (protocol.ts); anything else is ignored.
import { commandLink, parsePlayerUpdate, type PlayerRequest, type PlayerUpdate } from './protocol';
import { canStream, decodePiece, moveToFile, StreamingAudio } from './streamingAudio';
import { vsCodeApi } from '../vscodeApi';

const vscode = vsCodeApi<PlayerRequest>();

const audio = document.getElementById('player') as HTMLAudioElement;
const status = document.getElementById('status')!;
const actions = document.getElementById('actions')!;
const { type = '', save = '', open = '' } = document.body.dataset;

const say = (text: string) => void (status.textContent = text);

let stream: StreamingAudio | undefined;
if (canStream(type)) {
  stream = new StreamingAudio(audio, type, () => say('Receiving the audio… this player could not play it as it arrived: it plays once all of it is here.'));
  say('Receiving the audio… it plays as it arrives.');
} else {
  say('Receiving the audio… it plays once all of it is here.');
}

function link(command: string, entry: string, label: string, title: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = commandLink(command, { id: entry }, 0);
  a.title = title;
  a.textContent = label;
  return a;
}

function complete(src: string, entry: string): void {
  actions.replaceChildren(link(save, entry, 'Save to Workspace', 'Save this audio into the workspace'), document.createTextNode(' '), link(open, entry, 'Open', 'Open the audio file in an editor'));
  say('');
  // The stream's object URL is let go once the file plays.
  moveToFile(audio, stream, src, () => say('Press play to hear the audio.'));
}

function receive(message: PlayerUpdate): void {
  switch (message.type) {
    case 'piece':
      stream?.append(decodePiece(message.data));
      return;
    case 'end':
      stream?.end();
      return;
    case 'complete':
      return complete(message.src, message.entry);
    case 'failed':
      // What arrived can still be played; the page says the rest is missing.
      stream?.end();
      say(`The speech could not be completed: ${message.message}`);
      return;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parsePlayerUpdate(event.data);
  if (message) receive(message);
});
vscode.postMessage({ type: 'ready', streaming: stream !== undefined });

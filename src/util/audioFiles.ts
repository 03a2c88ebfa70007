// Which files can be transcribed, and how large: shared by Transcribe Audio File (the media feature) and the chat's
// audio attachments, and kept out of the media feature's api.ts, which activation loads. Pure.
/** The largest audio file sent to be transcribed: OpenAI's documented limit, which most gateways share. */
export const MAX_TRANSCRIBE_BYTES = 25 * 1024 * 1024;
/** The audio and video files the transcription endpoints take, by extension. */
export const TRANSCRIBABLE_EXTENSIONS = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'oga', 'opus', 'wav', 'webm'] as const;

export function isTranscribable(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 && (TRANSCRIBABLE_EXTENSIONS as readonly string[]).includes(fileName.slice(dot + 1).toLowerCase());
}

// The name a job's result is shown and saved under. Apart from download.ts so the Video Jobs tree (loaded at
// activation) names results without loading the download code.

/** CON, PRN, AUX, NUL, COM0-9, LPT0-9 (also with ¹²³), CONIN$, CONOUT$: Windows opens a device for these, whatever the extension. */
export function isWindowsReservedName(stem: string): boolean {
  return /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i.test(stem.replace(/[. ]+$/, '').split('.')[0]);
}

/** The file name without extension for a job's result: its id made safe (letters, digits, `_`, `-`), else "video". */
export function resultFileStem(jobId: string | undefined, index: number): string {
  let stem = (jobId ?? '').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[_-]+/, '').slice(0, 80);
  if (stem === '') stem = 'video';
  if (isWindowsReservedName(stem)) stem = `video-${stem}`;
  return index > 0 ? `${stem}-${index + 1}` : stem;
}

// A rate-limit wait as a person reads it: seconds up to two minutes (a countdown people watch), then minutes, then
// hours and minutes, never thousands of seconds. Browser-safe: the chat view and the host's notices share it.

export function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * A size on disk for a human line: MiB to one decimal from 0.1 MiB up; below that KiB to one
 * decimal, and plain bytes under 1 KiB — so a small index reads "7.9 KiB", never "0.0 MiB".
 */
export function byteSize(bytes: number): string {
  if (bytes >= 0.1 * 1048576) return `${(bytes / 1048576).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

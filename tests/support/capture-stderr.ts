import { vi } from 'vitest';

/** What the code under test writes to stderr from now on (the writes swallowed), line by line as written; undone by vi.restoreAllMocks(). */
export function captureStderr(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

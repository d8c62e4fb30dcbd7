/**
 * A server command's wait for SIGINT / SIGTERM. Take it BEFORE printing the start line: until a
 * listener exists, SIGTERM has its default action and kills the process (exit status null, not 0),
 * and a client that stops the server as soon as it reads the line can land in that gap (seen in CI:
 * `serve --runs` stopped by the test right after its line, under load).
 */
export function untilStopped(close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolveStop) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void close().then(resolveStop);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

// node z2.mjs CORPUS.jsonl — async deflateRaw (thread pool) vs deflateRawSync over 64 KiB blocks of the file: wall, process CPU, main-thread active time, page faults.
import { deflateRaw, deflateRawSync, constants } from 'node:zlib';
import { readFileSync } from 'node:fs';
const text = readFileSync(process.argv[2]).subarray(0, 64 << 20);
const blocks = []; for (let i = 0; i + 65536 <= text.length; i += 65536) blocks.push(Buffer.from(text.subarray(i, i + 65536)));
const opts = { level: 1, strategy: constants.Z_DEFAULT_STRATEGY };
async function run(name, fn) {
  const f0 = process.resourceUsage().minorPageFault; const elu0 = performance.eventLoopUtilization();
  const c0 = process.cpuUsage(); const t0 = performance.now();
  let bytes = await fn();
  const c = process.cpuUsage(c0); const elu = performance.eventLoopUtilization(elu0);
  console.log(name, 'wall', (performance.now() - t0).toFixed(0), 'cpu', ((c.user + c.system) / 1000).toFixed(0), 'main active', elu.active.toFixed(0), 'faults', process.resourceUsage().minorPageFault - f0, 'out', bytes);
}
for (let r = 0; r < 2; r++) {
await run('async', async () => { let n = 0; const inflight = []; for (const b of blocks) { inflight.push(new Promise((res) => deflateRaw(b, opts, (e, z) => { n += z.length; res(); }))); if (inflight.length > 16) await inflight.shift(); } await Promise.all(inflight); return n; });
await run('sync', async () => { let n = 0; for (const b of blocks) n += deflateRawSync(b, opts).length; return n; });
}

// One-off: the scale bench's query child (dist/bench/scale-child.js, the same code the bench runs) on
// the 10M Zipf index the 06:41 --keep run left, after the in-child settle; prints its result JSON.
import { runChild } from '/work/main/dist/bench/spawn-child.js';
import { settle, claimLimit } from '/work/main/dist/bench/quiet.js';
import { loadavg } from 'node:os';
const limit = claimLimit(2);
await settle(limit, 240, (l) => console.error(l));
const q = await runChild({ kind: 'scale-query', n: 10000000, seed: 42, profile: 'zipf', indexDir: '/tmp/s62/scale10m/scale-zipf-10000000/index', method: 'bm25', queries: 100, resultFile: '/tmp/s62/zipf10m-q.json', keepTop: 0, settleS: 240, settleLimit: limit }, 3600);
console.log(JSON.stringify({ ...q, loadAfter: loadavg() }, null, 1));

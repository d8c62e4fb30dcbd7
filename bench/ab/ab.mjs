// Old/new A/B of two builds' bm25 query time on one index (issue 38's notes of 2026-12-01:
// prune-scan, whole-or-split, shared-theta, handoff, worst-case): alternates ab-child.mjs runs of the OLD and NEW builds (each a worktree with dist/ built), ROUNDS rounds,
// the first arm alternating per round, for each THREADS setting; records each run's `uptime` load
// before and after, checks every run's top-k digest (ids and scores) equal, and prints per-round new ÷ old ratios.
//   node ab.mjs OLD_WT NEW_WT INDEX COUNT ROUNDS OUT.json [THREADS,...] [PROFILE: zipf | bench] [SHAPE: agent | worst | barexam]
// (SHAPE agent: the scale bench's agent queries at k 10, the default; worst: its long queries at k 1000;
// barexam: its Bar Exam questions at k 1000, profile bench, as bench/scale-child.ts scaleQueries makes them).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const [oldWt, newWt, index, count, rounds, out, threadList = '0,default', profile = 'zipf', shape = 'agent'] = process.argv.slice(2);
const child = fileURLToPath(new URL('./ab-child.mjs', import.meta.url));
const sha = (wt) => execFileSync('git', ['-C', wt, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
const dirty = (wt) => execFileSync('git', ['-C', wt, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const runs = [];
const ratios = [];
for (const threads of threadList.split(',')) {
  for (let round = 0; round < Number(rounds); round++) {
    const order = round % 2 === 0 ? ['old', 'new'] : ['new', 'old'];
    const got = {};
    for (const arm of order) {
      const wt = arm === 'old' ? oldWt : newWt;
      const before = uptime();
      const res = JSON.parse(execFileSync(process.execPath, [child, wt, index, count, threads, profile, shape], { encoding: 'utf8' }).trim().split('\n').pop());
      const after = uptime();
      got[arm] = res;
      runs.push({ threads, round, arm, ...res, uptimeBefore: before, uptimeAfter: after });
      console.error(
        `${threads} r${round} ${arm}: cpu p50 ${res.cpuP50.toFixed(3)} p95 ${res.cpuP95.toFixed(3)} wall p50 ${res.wallP50.toFixed(3)} p95 ${res.wallP95.toFixed(3)} mean ${res.wallMean.toFixed(3)} ns/posting ${res.nsPerPosting.toFixed(3)} | ${after}`,
      );
    }
    if (got.old.topSha256 !== got.new.topSha256) throw new Error(`top-k differ (threads ${threads}, round ${round})`);
    const q = (f) => got.new[f] / got.old[f];
    ratios.push({
      threads,
      round,
      cpuP50: q('cpuP50'),
      cpuP95: q('cpuP95'),
      cpuMean: q('cpuMean'),
      wallP50: q('wallP50'),
      wallP95: q('wallP95'),
      wallMean: q('wallMean'),
      nsPerPosting: q('nsPerPosting'),
      rss: q('rssMiB'),
    });
  }
}
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = {};
for (const threads of threadList.split(',')) {
  const rs = ratios.filter((r) => r.threads === threads);
  summary[threads] = Object.fromEntries(
    ['cpuP50', 'cpuP95', 'cpuMean', 'wallP50', 'wallP95', 'wallMean', 'nsPerPosting', 'rss'].map((f) => [f, median(rs.map((r) => r[f]))]),
  );
}
const result = {
  config: {
    index,
    blocksCrc32Sha256: createHash('sha256')
      .update(readFileSync(`${index}/blocks.crc32`))
      .digest('hex'),
    queries: Number(count),
    rounds: Number(rounds),
    threads: threadList,
    corpus: `${profile} (bench/scale-child.ts scaleBuild, seed 42)`,
    querySeed: 42,
    shape,
    k: shape === 'agent' ? 10 : 1000,
    k1: 0.9,
    b: 0.4,
  },
  old: { sha: sha(oldWt), dirty: dirty(oldWt) },
  new: { sha: sha(newWt), dirty: dirty(newWt) },
  medianRatiosNewOverOld: summary,
  ratios,
  runs,
};
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(summary));

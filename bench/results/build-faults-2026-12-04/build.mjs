// node build.mjs REPO CORPUS.jsonl OUT_DIR zipf|bench: the scale bench build of REPO/dist over the file; build figures, the process page faults and its user/sys CPU.
import { pathToFileURL } from 'node:url';
const [build, file, out, profile] = process.argv.slice(2);
const { scaleBuild } = await import(pathToFileURL(`${build}/dist/bench/scale-child.js`).href);
const r = await scaleBuild({ kind: 'scale-build', n: 0, seed: 42, profile, indexDir: out, resultFile: `${out}.json`, corpusFile: file, workers: 'auto' });
const ru = process.resourceUsage();
console.log(JSON.stringify({ buildS: r.buildS, buildCpuS: r.buildCpuS, peak: r.buildPeakRssMiB, minflt: ru.minorPageFault, sysS: ru.systemCPUTime / 1e6, userS: ru.userCPUTime / 1e6, phases: r.phases?.map((p) => [p.name, p.wallS, p.cpuS]).filter((p) => p[1] > 0.5) }));

"""The BM25S peer of the scale bench (bench/bm25s-peer.ts starts it; issue 31, target 3).

Lexcase's own driver for BM25S (https://github.com/xhluca/bm25s, numpy backend): BM25S itself is
not part of the repository; its source directory is put on PYTHONPATH by the caller
(--bm25s-src DIR or LEXCASE_BM25S_SRC). Usage:

    python3 bench/bm25s-peer.py SPEC.json

SPEC (written by bench/bm25s-peer.ts): {"genCmd": [argv of the corpus generator], "k1", "b",
"tokenPattern", "stopwords": [..], "shapes": [{"shape", "k", "queries": [..], "warmup": 2}],
"agreeQueries": N, "resultFile", "genCpuFile"}.

Build: the passages stream from the same seeded generator process the lexcase build reads
(bench/scale-gen.ts), through a pipe; BM25S's own tokenizer (bm25s.tokenize) reads the texts as they
arrive and BM25.index builds its sparse matrix of precomputed scores in memory. Build wall, CPU
(getrusage of this process: user + system, all threads) and peak RSS (VmHWM: this process's own
high-water mark; ru_maxrss on Linux carries over the Node driver's RSS at spawn) are this
process's alone; the generator's CPU is reported apart, as for lexcase.

Queries: one after another in this process, after `warmup` warm-up queries, each tokenized with the
same tokenizer settings and retrieved with BM25.retrieve(k, backend_selection="numpy",
n_threads=0); wall (perf_counter) and CPU (process_time) per query. The top-10 (passage ids and
float32 scores) of the first `agreeQueries` timed queries come back for the agreement check.
"""
import json
import os
import resource
import subprocess
import sys
import time


def own_peak_rss_mib():
    """This process's own peak RSS (VmHWM of /proc/self/status); ru_maxrss elsewhere. On Linux
    ru_maxrss starts from the parent's RSS at fork, so a child of a large driver read as at least it."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rusage_cpu_s():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def percentile(values, p):
    s = sorted(values)
    if not s:
        return float("nan")
    rank = -(-p * len(s) // 100)  # ceil
    return s[min(len(s) - 1, max(0, int(rank) - 1))]


def main():
    spec = json.load(open(sys.argv[1]))
    import numpy as np  # noqa: F401  (fail here, with a clear message, if numpy is missing)
    import bm25s

    t0 = time.perf_counter()
    cpu0 = rusage_cpu_s()
    gen = subprocess.Popen(spec["genCmd"], stdout=subprocess.PIPE, stderr=None, bufsize=1 << 20)
    ids = []

    def texts():
        for line in gen.stdout:
            if not line.strip():
                continue
            p = json.loads(line)
            ids.append(p["id"])
            yield p["text"]

    tok = dict(lower=True, token_pattern=spec["tokenPattern"], stopwords=spec["stopwords"], stemmer=None, show_progress=False)
    corpus_tokens = bm25s.tokenize(texts(), return_ids=True, **tok)
    if gen.wait() != 0:
        raise SystemExit(f"corpus generator exited with {gen.returncode}")
    model = bm25s.BM25(k1=spec["k1"], b=spec["b"], method="lucene", backend="numpy")
    model.index(corpus_tokens, show_progress=False)
    del corpus_tokens
    build_s = time.perf_counter() - t0
    build_cpu_s = rusage_cpu_s() - cpu0
    build_peak_mib = own_peak_rss_mib()
    gen_cpu_s = None
    try:
        gen_cpu_s = float(open(spec["genCpuFile"]).read())
        os.remove(spec["genCpuFile"])
    except OSError:
        pass
    postings = int(model.scores["data"].shape[0])

    shapes = []
    for sh in spec["shapes"]:
        k = min(sh["k"], len(ids))
        load_at_start = [round(x, 2) for x in os.getloadavg()]
        ms, cpu, top = [], [], []
        for i, q in enumerate(sh["queries"]):
            c = time.process_time()
            t = time.perf_counter()
            qt = bm25s.tokenize(q, return_ids=False, **tok)
            docs, scores = model.retrieve(qt, k=k, sorted=True, show_progress=False, n_threads=0, backend_selection="numpy")
            wall = (time.perf_counter() - t) * 1000
            dc = (time.process_time() - c) * 1000
            if i < sh["warmup"]:
                continue
            ms.append(wall)
            cpu.append(dc)
            if len(top) < spec["agreeQueries"]:
                n = min(10, k)
                top.append({"ids": [ids[int(d)] for d in docs[0][:n]], "scores": [float(s) for s in scores[0][:n]]})
        r2 = lambda x: round(x, 2)
        shapes.append({
            "shape": sh["shape"], "k": sh["k"], "queries": len(ms),
            "p50Ms": r2(percentile(ms, 50)), "p95Ms": r2(percentile(ms, 95)),
            "meanMs": r2(sum(ms) / max(1, len(ms))), "maxMs": r2(max(ms) if ms else float("nan")),
            "cpuP50Ms": r2(percentile(cpu, 50)), "cpuP95Ms": r2(percentile(cpu, 95)), "cpuSumMs": r2(sum(cpu)),
            "loadAvgAtStart": load_at_start, "top10": top,
        })

    out = {
        "engine": "bm25s",
        "version": getattr(bm25s, "__version__", None),
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "passages": len(ids),
        "postings": postings,
        "vocabulary": len(model.vocab_dict),
        "buildS": round(build_s, 2),
        "buildCpuS": round(build_cpu_s, 2),
        "buildPeakRssMiB": round(build_peak_mib, 1),
        "generatorCpuS": None if gen_cpu_s is None else round(gen_cpu_s, 2),
        "servingRssMiB": round(current_rss_mib(), 1),
        "servingPeakRssMiB": round(own_peak_rss_mib(), 1),
        "shapes": shapes,
        "loadAvg": [round(x, 2) for x in os.getloadavg()],
    }
    with open(spec["resultFile"], "w") as f:
        json.dump(out, f)


def current_rss_mib():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return float("nan")


if __name__ == "__main__":
    main()

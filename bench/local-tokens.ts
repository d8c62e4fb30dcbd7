/**
 * Tokens per second of the `local` LLM provider's runtime (llama.cpp through node-llama-cpp, the
 * prebuilt CPU binary, as core/llm/local/runtime.ts loads it) on a GGUF model — by default the tiny
 * random-weight model the tests write (tests/support/tiny-gguf.ts: 2 layers, 64 dimensions, F32):
 *
 *   npx tsx bench/local-tokens.ts [--model-file m.gguf] [--threads N] [--prompt-tokens 1024] [--gen-tokens 256] [--repeats 3]
 *
 * - prompt (prefill): a prompt of --prompt-tokens tokens (legal text from the bundled corpus,
 *   tokenized by the model) evaluated from an empty context in batches of 512 (the provider's);
 * - generation: --gen-tokens tokens decoded one at a time, greedy (temperature 0), after a short
 *   prompt, past end-of-generation tokens (`yieldEogToken`: the tiny model ranks end-of-turn first
 *   and would otherwise stop at once; each decoded token costs one forward pass whichever it is).
 * Each is timed --repeats times from a cleared context; the median and the best are printed, with
 * the 1-minute load average before and after and the CPU count: on a shared machine the figures
 * fall with the load. Prints a table, then one JSON line.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadPassages } from '../corpora/registry.js';
import { cpuLlama, nodeLlamaCppVersion } from '../core/llm/local/runtime.js';
import { defaultThreads, LOCAL_BATCH_SIZE } from '../core/llm/local/settings.js';
import { writeTinyGguf } from '../tests/support/tiny-gguf.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'model-file': { type: 'string' },
      threads: { type: 'string' },
      'prompt-tokens': { type: 'string', default: '1024' },
      'gen-tokens': { type: 'string', default: '256' },
      repeats: { type: 'string', default: '3' },
    },
  });
  const threads = values.threads ? Number(values.threads) : defaultThreads();
  const promptN = Number(values['prompt-tokens']);
  const genN = Number(values['gen-tokens']);
  const repeats = Number(values.repeats);
  const tmp = mkdtempSync(join(tmpdir(), 'lexcase-local-tokens-'));
  const loadBefore = loadavg()[0];
  try {
    const file = values['model-file'] ?? writeTinyGguf(join(tmp, 'tiny.gguf'));
    const llama = await cpuLlama();
    const model = await llama.loadModel({ modelPath: file });
    const context = await model.createContext({ contextSize: Math.max(2048, promptN + genN + 64), batchSize: LOCAL_BATCH_SIZE, threads, sequences: 1 });
    const seq = context.getSequence();
    let text = '';
    for await (const p of loadPassages('legal_corpus')) {
      text += p.text + '\n';
      if (model.tokenize(text).length > promptN) break;
    }
    const prompt = model.tokenize(text).slice(0, promptN);
    const prefill: number[] = [];
    const generation: number[] = [];
    const generated: number[] = [];
    for (let r = 0; r < repeats; r++) {
      await seq.clearHistory();
      let t0 = performance.now();
      await seq.evaluateWithoutGeneratingNewTokens(prompt);
      prefill.push(prompt.length / ((performance.now() - t0) / 1000));
      await seq.clearHistory();
      const start = prompt.slice(0, 16);
      let n = 0;
      t0 = performance.now();
      for await (const _token of seq.evaluate(start, { temperature: 0, yieldEogToken: true })) if (++n >= genN) break;
      generation.push(n / ((performance.now() - t0) / 1000));
      generated.push(n);
    }
    await context.dispose();
    await model.dispose();
    const result = {
      model: { file: values['model-file'] ?? 'tiny.gguf (tests/support/tiny-gguf.ts)', bytes: statSync(file).size },
      runtime: { package: 'node-llama-cpp', version: nodeLlamaCppVersion(), gpu: false, threads, batchSize: LOCAL_BATCH_SIZE },
      prompt: {
        tokens: prompt.length,
        tokensPerS: { median: Math.round(median(prefill)), best: Math.round(Math.max(...prefill)), runs: prefill.map(Math.round) },
      },
      generation: {
        tokens: Math.min(...generated),
        tokensPerS: { median: Math.round(median(generation)), best: Math.round(Math.max(...generation)), runs: generation.map(Math.round) },
      },
      machine: {
        cpus: availableParallelism(),
        cpuModel: cpus()[0]?.model,
        loadAvg1m: { before: Number(loadBefore.toFixed(2)), after: Number(loadavg()[0].toFixed(2)) },
        node: process.version,
      },
    };
    console.log(
      `model ${result.model.file}, ${threads} thread(s), batch ${LOCAL_BATCH_SIZE}, CPU only; ${result.machine.cpus} CPUs (${result.machine.cpuModel}); 1-min load ${result.machine.loadAvg1m.before} before, ${result.machine.loadAvg1m.after} after`,
    );
    console.log('| phase | tokens | tokens/s (median) | best | runs |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| prompt (prefill) | ${prompt.length} | ${result.prompt.tokensPerS.median} | ${result.prompt.tokensPerS.best} | ${result.prompt.tokensPerS.runs.join(', ')} |`,
    );
    console.log(
      `| generation (greedy) | ${result.generation.tokens} | ${result.generation.tokensPerS.median} | ${result.generation.tokensPerS.best} | ${result.generation.tokensPerS.runs.join(', ')} |`,
    );
    console.log(JSON.stringify(result));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();

/**
 * node-llama-cpp, the llama.cpp bindings the local provider runs on, is an optional dependency
 * (like @xenova/transformers for the transformers embedder): it is imported only when a local
 * model is used, so start-up and every other command are unchanged, and where it is absent the
 * error names the package to install.
 *
 * Only its prebuilt CPU binary is used (the @node-llama-cpp/<platform>-<arch> package npm installs
 * beside it): `getLlama({ gpu: false, build: 'never', skipDownload: true })` never compiles and
 * never downloads, whatever its postinstall did or did not do. Where no prebuilt binary fits the
 * machine the error says so, and what to do instead.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { errors } from '../../errors.js';
import { log } from '../../log.js';

export type NodeLlamaCpp = typeof import('node-llama-cpp');
export type Llama = Awaited<ReturnType<NodeLlamaCpp['getLlama']>>;

export const LOCAL_PACKAGE = 'node-llama-cpp';

const ALTERNATIVES = 'or serve the model over HTTP (llama.cpp server, Ollama, vLLM) and use --llm-provider llamacpp | ollama | vllm with --endpoint';

let loaded: Promise<NodeLlamaCpp> | undefined;
let llama: Promise<Llama> | undefined;

/** The package (imported once; `importer` for tests); LLM_UNAVAILABLE naming it when it is absent or does not load. */
export function loadNodeLlamaCpp(importer?: () => Promise<NodeLlamaCpp>): Promise<NodeLlamaCpp> {
  const attempt = (importer ?? (() => import('node-llama-cpp')))().catch((e: unknown) => {
    throw errors.localLlmUnavailable(
      `it needs the optional package ${LOCAL_PACKAGE}, which is not installed or could not be loaded: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
      `run \`npm install ${LOCAL_PACKAGE}\` in your project (lexcase lists it as an optional dependency; it brings a prebuilt CPU binary, nothing is compiled); ${ALTERNATIVES}`,
      e,
    );
  });
  if (importer) return attempt;
  loaded ??= attempt;
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** The package's version (from its package.json), for the run config. */
export function nodeLlamaCppVersion(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    let dir = dirname(require.resolve(LOCAL_PACKAGE));
    for (let i = 0; i < 5; i++, dir = dirname(dir)) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === LOCAL_PACKAGE) return pkg.version;
      } catch {
        /* not here */
      }
    }
  } catch {
    /* not resolvable */
  }
  return undefined;
}

/**
 * The llama.cpp runtime on the CPU from the prebuilt binary (one per process). LLM_UNAVAILABLE
 * when none fits this machine.
 */
export function cpuLlama(pkg?: NodeLlamaCpp): Promise<Llama> {
  llama ??= (async () => {
    const m = pkg ?? (await loadNodeLlamaCpp());
    try {
      return await m.getLlama({
        gpu: false,
        build: 'never',
        usePrebuiltBinaries: true,
        skipDownload: true,
        // a context's threads are then exactly the ones asked for (not fewer while others evaluate)
        maxThreads: 0,
        progressLogs: false,
        logLevel: m.LlamaLogLevel.error,
        logger: (level, message) => log.debug(`llama.cpp ${level}: ${message.trimEnd()}`),
      });
    } catch (e) {
      throw errors.localLlmUnavailable(
        `no prebuilt llama.cpp binary of ${LOCAL_PACKAGE} runs on this machine (${process.platform}-${process.arch}): ${String((e as Error)?.message ?? e).split('\n')[0]}`,
        `${LOCAL_PACKAGE} ships CPU binaries for Linux x64/arm64/armv7l, macOS x64/arm64 and Windows x64/arm64 as optional packages (@${LOCAL_PACKAGE}/<platform>-<arch>); reinstall without --omit=optional, ${ALTERNATIVES}`,
        e,
      );
    }
  })();
  llama.catch(() => (llama = undefined));
  return llama;
}

/**
 * One loaded local model (provider "local"): a GGUF file run by llama.cpp on the CPU in this
 * process, answering OpenAI chat-completions requests (chat-request.ts turns a request into a
 * generation and the text back into the reply).
 *
 * Reproducibility: every request is evaluated from an empty context (no prompt reuse between
 * requests), one at a time (a queue), with a fixed thread count (llama.cpp's thread pool is not
 * shared: `maxThreads: 0`) and batch size, and sampled with the request's seed (else the
 * configured one) — so a reply depends on the request, the model file and those settings only,
 * not on which requests came before or ran beside it. With temperature 0 decoding is greedy.
 *
 * Engines are kept per process and settings (`openLocalEngine`), so a run's models, copies and
 * the preflight share one loaded model.
 */
import { errors } from '../../errors.js';
import { log } from '../../log.js';
import { planGeneration, replyOf, type GenerationPlan, type HistoryItem, type WireRequest } from './chat-request.js';
import { GrammarSchemaError } from './gbnf-schema.js';
import { cpuLlama, loadNodeLlamaCpp, nodeLlamaCppVersion, type Llama, type NodeLlamaCpp } from './runtime.js';
import { DEFAULT_MAX_CONTEXT, localModelId, type LocalSettings } from './settings.js';
import { modelFileHash } from './model-hash.js';

type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
type LlamaSequence = ReturnType<LlamaContext['getSequence']>;
type LlamaGrammar = Awaited<ReturnType<Llama['createGrammarForJsonSchema']>>;
type ChatWrapper = InstanceType<NodeLlamaCpp['LlamaChat']>['chatWrapper'];

/** What identifies the model and the runtime: written into the run config (config.json `model.local`). */
export interface LocalModelInfo {
  file: string;
  sha256: string;
  bytes: number;
  /** The id the cache and recordings use ("<file>@sha256:<16 hex>"). */
  model: string;
  gguf: {
    architecture?: string;
    name?: string;
    /** general.file_type as llama.cpp names it (e.g. MOSTLY_Q4_K_M). */
    quantization?: string;
    contextLength?: number;
    chatTemplate?: string;
    /** The node-llama-cpp chat wrapper the template resolved to. */
    chatWrapper: string;
  };
  runtime: { package: string; llamaCpp?: string; binary: string; gpu: false; threads: number; batchSize: number; contextSize: number };
}

export interface LocalEngineStats {
  requests: number;
  promptTokens: number;
  generatedTokens: number;
  /** Wall time spent evaluating and generating, ms. */
  ms: number;
}

/** An error the local model answers a request with: a status like a server's, so the client treats it alike (400: not retried). */
class LocalRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'LocalRequestError';
  }
}

const GRAMMAR_CACHE = 64;

export class LocalEngine {
  readonly stats: LocalEngineStats = { requests: 0, promptTokens: 0, generatedTokens: 0, ms: 0 };
  private queue: Promise<unknown> = Promise.resolve();
  private grammars = new Map<string, Promise<LlamaGrammar>>();
  private served = 0;

  constructor(
    private readonly pkg: NodeLlamaCpp,
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly seq: LlamaSequence,
    private readonly wrapper: ChatWrapper,
    readonly settings: LocalSettings,
    readonly info: LocalModelInfo,
  ) {}

  private grammarFor(plan: GenerationPlan): Promise<LlamaGrammar> | undefined {
    if (!plan.grammar) return undefined;
    const key = plan.grammar === 'json' ? 'json' : JSON.stringify(plan.grammar);
    let g = this.grammars.get(key);
    if (!g) {
      g =
        plan.grammar === 'json'
          ? (this.llama.getGrammarFor('json') as unknown as Promise<LlamaGrammar>)
          : this.llama.createGrammarForJsonSchema(plan.grammar as never);
      g.catch(() => this.grammars.delete(key));
      if (this.grammars.size >= GRAMMAR_CACHE) this.grammars.delete(this.grammars.keys().next().value!);
      this.grammars.set(key, g);
    }
    return g;
  }

  /** Prompt tokens of `history` as the chat template renders it (with the reply's opening). */
  private promptTokens(history: HistoryItem[]): number {
    const state = this.wrapper.generateContextState({ chatHistory: [...history, { type: 'model', response: [] }] as never });
    return state.contextText.tokenize(this.model.tokenizer).length;
  }

  /** Answer one chat-completions request (queued behind those before it). */
  complete(req: WireRequest, signal?: AbortSignal): Promise<Record<string, unknown>> {
    let plan: GenerationPlan;
    try {
      plan = planGeneration(req);
    } catch (e) {
      const why = e instanceof GrammarSchemaError ? `the schema has no llama.cpp grammar: ${e.message}` : (e as Error).message;
      return Promise.reject(new LocalRequestError(why, 400));
    }
    const run = this.queue.then(() => this.generate(plan, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async generate(plan: GenerationPlan, signal?: AbortSignal): Promise<Record<string, unknown>> {
    signal?.throwIfAborted();
    const grammar = await this.grammarFor(plan);
    const contextSize = this.info.runtime.contextSize;
    const prompt = this.promptTokens(plan.history);
    if (prompt >= contextSize)
      throw new LocalRequestError(
        `the prompt is ${prompt} tokens; the local model's context holds ${contextSize} (set llm.contextSize / LEXCASE_LLM_CONTEXT_SIZE, up to the model's ${this.info.gguf.contextLength ?? '?'})`,
        400,
      );
    const maxTokens = Math.min(plan.maxTokens ?? Infinity, contextSize - prompt);
    const t0 = performance.now();
    await this.seq.clearHistory();
    const before = this.seq.tokenMeter.getState();
    const chat = new this.pkg.LlamaChat({ contextSequence: this.seq, chatWrapper: this.wrapper });
    let res;
    try {
      res = await chat.generateResponse([...plan.history, { type: 'model', response: [] }] as never, {
        ...(grammar ? { grammar } : {}),
        maxTokens,
        temperature: plan.temperature ?? 0,
        ...(plan.topP !== undefined ? { topP: plan.topP } : {}),
        seed: plan.seed ?? this.settings.seed,
        ...(plan.stop?.length ? { customStopTriggers: plan.stop } : {}),
        ...(signal ? { signal } : {}),
      });
    } finally {
      chat.dispose({ disposeSequence: false });
    }
    const used = this.seq.tokenMeter.diff(before);
    const ms = performance.now() - t0;
    this.stats.requests++;
    this.stats.promptTokens += used.usedInputTokens;
    this.stats.generatedTokens += used.usedOutputTokens;
    this.stats.ms += ms;
    log.debug(`local model: ${used.usedInputTokens} prompt + ${used.usedOutputTokens} generated tokens in ${Math.round(ms)} ms (${res.metadata.stopReason})`);
    const { message, toolCalls } = replyOf(plan, res.response);
    return {
      id: `chatcmpl-local-${++this.served}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.info.model,
      // a reply stopped at the token limit says so whatever its shape: a forced tool call (structuredOutput "tool") cut there
      // carries cut arguments, and reading it as 'tool_calls' hid the cut from tokens.cutShort and from the item's error
      choices: [{ index: 0, message, logprobs: null, finish_reason: res.metadata.stopReason === 'maxTokens' ? 'length' : toolCalls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: used.usedInputTokens, completion_tokens: used.usedOutputTokens, total_tokens: used.usedInputTokens + used.usedOutputTokens },
    };
  }
}

const engines = new Map<string, Promise<LocalEngine>>();

function fileTypeName(pkg: NodeLlamaCpp, t: unknown): string | undefined {
  return typeof t === 'number' ? ((pkg.GgufFileType as unknown as Record<number, string>)[t] ?? String(t)) : undefined;
}

async function load(s: LocalSettings): Promise<LocalEngine> {
  const pkg = await loadNodeLlamaCpp();
  const llama = await cpuLlama(pkg);
  let hash;
  try {
    hash = modelFileHash(s.file);
  } catch (e) {
    throw errors.localLlmUnavailable(
      `the model file ${s.file} cannot be read: ${(e as Error).message}`,
      'check --model-file / LEXCASE_LLM_MODEL_FILE / llm.modelFile',
    );
  }
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: s.file, gpuLayers: 0 });
  } catch (e) {
    throw errors.localLlmUnavailable(
      `the model file ${s.file} cannot be loaded: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
      'it must be a GGUF file (llama.cpp\'s format: "GGUF" in its first bytes) of an architecture this llama.cpp knows; docs/llm.md lists models that fit',
      e,
    );
  }
  const contextSize = s.contextSize ?? Math.min(model.trainContextSize || DEFAULT_MAX_CONTEXT, DEFAULT_MAX_CONTEXT);
  let context: LlamaContext;
  try {
    context = await model.createContext({ contextSize, batchSize: Math.min(s.batchSize, contextSize), threads: s.threads, sequences: 1 });
  } catch (e) {
    throw errors.localLlmUnavailable(
      `no context of ${contextSize} tokens fits: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
      'set a smaller llm.contextSize (LEXCASE_LLM_CONTEXT_SIZE)',
      e,
    );
  }
  const seq = context.getSequence();
  const wrapper = pkg.resolveChatWrapper(model) as ChatWrapper;
  const md = model.fileInfo.metadata as unknown as {
    general?: { architecture?: string; name?: string; file_type?: number };
    tokenizer?: { chat_template?: string };
  } & Record<string, { context_length?: number }>;
  const arch = md.general?.architecture;
  const release = llama.llamaCppRelease;
  const info: LocalModelInfo = {
    file: s.file,
    sha256: hash.sha256,
    bytes: hash.size,
    model: localModelId(s.file, hash.sha256),
    gguf: {
      architecture: arch,
      name: md.general?.name,
      quantization: fileTypeName(pkg, md.general?.file_type),
      contextLength: arch ? md[arch]?.context_length : undefined,
      chatTemplate: md.tokenizer?.chat_template,
      chatWrapper: wrapper.wrapperName,
    },
    runtime: {
      package: `${'node-llama-cpp'}@${nodeLlamaCppVersion() ?? '?'}`,
      llamaCpp: release ? `${release.release}` : undefined,
      binary: `${llama.buildType} cpu`,
      gpu: false,
      threads: s.threads,
      batchSize: Math.min(s.batchSize, contextSize),
      contextSize: context.contextSize,
    },
  };
  log.debug(
    `local model ${info.model} loaded: ${arch ?? '?'} ${info.gguf.quantization ?? ''}, context ${context.contextSize}, ${s.threads} threads, chat wrapper ${wrapper.wrapperName}`,
  );
  return new LocalEngine(pkg, llama, model, seq, wrapper, s, info);
}

/** The engine for these settings, loaded once per process; LLM_UNAVAILABLE when the package, a binary or the file is missing. */
export function openLocalEngine(s: LocalSettings): Promise<LocalEngine> {
  // not the seed: every request names its own (createChatModel sends llm.seed with each)
  const key = JSON.stringify([s.file, s.threads, s.batchSize, s.contextSize ?? null]);
  let e = engines.get(key);
  if (!e) {
    e = load(s);
    e.catch(() => engines.delete(key));
    engines.set(key, e);
  }
  return e;
}

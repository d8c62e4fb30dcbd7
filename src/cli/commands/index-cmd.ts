/**
 * `lexcase index build <corpus-name|path> --out DIR` and `lexcase index info DIR`.
 * --methods takes any comma list and passes it to buildIndex (bm25, qld; dense when the dense
 * indexer is present — unknown methods are rejected there with the known list).
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readdir, stat } from 'node:fs/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { denseVectorSettings, type Manifest } from '../../../indexer/manifest.js';
import { describeVectorSettings } from '../../../indexer/embed/vector-spec.js';
import { modelMaxTokens } from '../../../indexer/embed/model-token-limit.js';
import type { BuildOptions } from '../../../indexer/build.js';
import { corpusNames } from '../../../corpora/catalog.js';
import { log } from '../../../core/log.js';
import { errors } from '../../../core/errors.js';
import { hasKeyedQueryDigest, withoutKeyedQueryDigests } from '../../../core/older-query-digest.js';
import { damagedJson, verifyIndexDir, verifyJson, verifySummary } from './index-verify.js';
import { action, output, parseIntOpt, parseListOpt, parseUniqueListOpt, type GlobalOpts } from '../action.js';
import { byteSize } from '../byte-size.js';
import { addCorpusOptions, assertCorpusFlagsApply, corpusLoadOptions, parseAnalyzerSpec, type CorpusFlags } from './cli-corpus-options.js';
import { addDenseBuildOptions, denseBuildOptions, wantsDense, type DenseBuildFlags } from '../dense-index-options.js';
import { PREBUILT_DENSE_SPEC } from '../../../indexer/dense/prebuilt-spec.js';
import { isRemoteUri } from '../../../indexer/dense/dense-section.js';

export interface IndexBuildFlags extends CorpusFlags, DenseBuildFlags {
  out: string;
  methods: string[];
  analyzer?: string;
  workers?: number | 'auto';
  name?: string;
  /** Options for a dense build; passed to buildIndex as `dense`. */
  dense?: BuildOptions['dense'];
}

/** Sizes of an index dir: total bytes and bytes per top-level entry. */
export async function dirSizes(dir: string): Promise<{ total: number; parts: Record<string, number> }> {
  const parts: Record<string, number> = {};
  let total = 0;
  const walk = async (d: string, top: string | undefined): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const key = top ?? e.name;
      if (e.isDirectory()) await walk(p, key);
      else if (e.isFile()) {
        const s = (await stat(p)).size;
        parts[key] = (parts[key] ?? 0) + s;
        total += s;
      }
    }
  };
  await walk(dir, undefined);
  return { total, parts };
}

const workersInt = parseIntOpt('workers', { min: 0, max: 64 });
/** --workers: 'auto' (one per usable core, os.availableParallelism()) or an integer 0–64. */
export function workersOpt(v: string): number | 'auto' {
  if (v.trim() === 'auto') return 'auto';
  try {
    return workersInt(v);
  } catch {
    throw new InvalidArgumentError('expected an integer from 0 to 64, or auto.');
  }
}

/**
 * True when no flag asks for dense vectors other than the shipped prebuilt ones (use-lite, first
 * 128 words): the build then loads those when they match the corpus, instead of embedding.
 */
export function prebuiltDenseAllowed(flags: DenseBuildFlags): boolean {
  return (
    (flags.embedder === undefined || flags.embedder === 'use-lite') &&
    flags.model === undefined &&
    flags.modelDir === undefined &&
    (flags.maxWords === undefined || Number(flags.maxWords) === PREBUILT_DENSE_SPEC.maxWords)
  );
}

/** Build an index from a bundled corpus name or a path, with a progress bar on a TTY. */
export async function runIndexBuild(
  corpus: string,
  flags: IndexBuildFlags,
  signal?: AbortSignal,
  o: { methodsGiven?: boolean } = {},
): Promise<{ manifest: Manifest; seconds: number; bytes: number; densePrebuilt?: string }> {
  const analyzer = parseAnalyzerSpec(flags.analyzer);
  const [{ indexCorpus, knownPassageCount }, { createProgress }, { rebuildPlan }, { assertBundledNameUnshadowed }] = await Promise.all([
    import('../../../indexer/index-corpus.js'),
    import('../../../core/progress.js'),
    import('./index-rebuild-methods.js'),
    import('../../../corpora/registry.js'),
  ]);
  // `barexam` with a ./barexam here: refused before anything is read or written, not the bundled corpus silently
  await assertBundledNameUnshadowed(corpus);
  const load = corpusLoadOptions(flags);
  await assertCorpusFlagsApply(corpus, flags);
  // A rebuild of an existing index without --methods keeps the methods it has (index-rebuild-methods.ts).
  // … and its analyzer, unless --analyzer is given
  const plan = await rebuildPlan(flags.out, o.methodsGiven === false ? undefined : flags.methods, flags.methods, wantsDense(flags) || !!flags.dense, analyzer);
  if (plan?.note) log.info(plan.note);
  if (plan?.analyzerNote) log.info(plan.analyzerNote);
  const asked = plan?.methods ?? flags.methods;
  // --embedder/--model-dir imply the dense method; dense options come from the --embedder… flags.
  const methods = wantsDense(flags) && !asked.includes('dense') ? [...asked, 'dense'] : asked;
  const dense = flags.dense ?? plan?.dense ?? (methods.includes('dense') ? denseBuildOptions(flags) : undefined);
  // dense flags on a rebuild embed with those flags; without --embedder that is use-lite, which must not replace
  // another embedder the index has without a word
  const kept = plan?.recordedEmbedder;
  const now = dense?.embedder?.provider;
  if (!flags.dense && !plan?.dense && now && kept && flags.embedder === undefined && flags.modelDir === undefined && now !== kept.provider)
    throw errors.usage(
      `${flags.out} has dense vectors from ${kept.id}; the dense flags given re-embed it, with ${now} when no --embedder is given`,
      `give --embedder ${kept.provider} (and its --model) to keep its embedder, or --embedder ${now} to change it`,
    );
  const prebuiltOk = flags.dense ? false : plan?.dense ? !!plan.densePrebuilt : prebuiltDenseAllowed(flags);
  // a dense store in object storage that does not answer: one line before anything is read or built (indexer/dense/dense-store.ts)
  if (methods.includes('dense') && dense?.uri && isRemoteUri(dense.uri))
    await (await import('../../../indexer/dense/dense-store.js')).checkDenseStore(dense.uri);
  const total = knownPassageCount(corpus) ?? 0;
  const bar = createProgress(`index ${corpus}`, { unit: 'passages' });
  if (total) bar.start(total);
  let lastLogged = 0;
  const t0 = performance.now();
  let densePrebuilt: string | undefined;
  try {
    const manifest = await indexCorpus(corpus, {
      ...load,
      out: flags.out,
      corpusName: flags.name,
      methods,
      analyzer: plan?.analyzer ?? analyzer,
      workers: flags.workers,
      signal,
      dense,
      densePrebuilt: prebuiltOk,
      onDensePrebuilt: (name) => {
        densePrebuilt = name;
        log.info(
          `dense: loaded the shipped use-lite vectors ${name} (title + text cut at ${PREBUILT_DENSE_SPEC.maxWords} words, of which use-lite reads the first ${modelMaxTokens('use-lite')} tokens) instead of embedding; --max-words N or --embedder … embeds instead`,
        );
      },
      // the passages' count ends with the sparse index; the dense step shows its own progress
      onSparseBuilt: (m) => {
        if (total) bar.update(m.corpus.passages);
        bar.stop();
      },
      onProgress: (n) => {
        if (total) bar.update(n);
        else if (n - lastLogged >= 100_000) {
          lastLogged = n;
          log.info(`  ${n.toLocaleString('en-US')} passages…`);
        }
      },
    });
    if (total) bar.update(manifest.corpus.passages);
    const bytes = (await dirSizes(flags.out)).total;
    return { manifest, seconds: (performance.now() - t0) / 1000, bytes, ...(densePrebuilt ? { densePrebuilt } : {}) };
  } finally {
    bar.stop();
  }
}

/** "2 with no text, 1 with no index term, 1 with U+FFFD replacement characters, 3 with invisible characters inside words" (indexer/corpus-notes.ts); "" when the build noted none. */
function corpusNotes(m: Manifest): string {
  const { emptyPassages: empty, termlessPassages: termless, replacementPassages: replaced, formatCharPassages: formatChars } = m.corpus;
  return [
    ...(empty ? [`${empty.toLocaleString('en-US')} with no text`] : []),
    ...(termless ? [`${termless.toLocaleString('en-US')} with no index term`] : []),
    ...(replaced ? [`${replaced.toLocaleString('en-US')} with U+FFFD replacement characters`] : []),
    ...(formatChars ? [`${formatChars.toLocaleString('en-US')} with invisible characters inside words`] : []),
  ].join(', ');
}

/** ", modelMaxTokens 128 (5,415 passages longer: embedded from their first 128 tokens)"; the limit alone for an index from before the count; "" where unknown. */
function tokenLimitNote(d: NonNullable<Manifest['dense']>): string {
  const recorded = d as { modelMaxTokens?: number; passagesOverModelMaxTokens?: number };
  const limit = recorded.modelMaxTokens ?? modelMaxTokens(d.embedder);
  if (limit === undefined) return '';
  const over = recorded.passagesOverModelMaxTokens;
  const them = over === 1 ? 'passage longer: embedded from its' : 'passages longer: embedded from their';
  return `, modelMaxTokens ${limit}${over ? ` (${over.toLocaleString('en-US')} ${them} first ${limit} tokens)` : ''}`;
}

/** ", 1,067 passages longer than maxWords 32: embedded from their first 32 words"; "" where none was cut or the build did not count them. */
function wordLimitNote(d: NonNullable<Manifest['dense']>): string {
  const over = (d as { passagesOverMaxWords?: number }).passagesOverMaxWords;
  const limit = Number(denseVectorSettings(d).maxWords);
  if (!over || !(limit > 0)) return '';
  return `, ${over.toLocaleString('en-US')} ${over === 1 ? 'passage' : 'passages'} longer than maxWords ${limit}: embedded from ${over === 1 ? 'its' : 'their'} first ${limit} words`;
}

/** "ids, titles and texts sha256 0123456789ab…": the checksum of what the dense vectors were made from (the corpus checksum covers no titles). */
function embeddedTextNote(d: NonNullable<Manifest['dense']>): string {
  const c = (d as { embeddedTextChecksum?: string }).embeddedTextChecksum;
  return `ids, titles and texts sha256 ${c ? `${c.slice(0, 12)}…` : 'not recorded (dense vectors from before it, or older prebuilt ones)'}`;
}

/** "ids, titles and texts sha256 0123456789ab…": the checksum of what the lancedb-fts table indexes (manifest lancedbFts.textChecksum; the corpus checksum covers no titles). */
function lanceFtsNote(dir: string, m: Manifest): string {
  const c = m.lancedbFts?.textChecksum;
  return `ids, titles and texts sha256 ${c ? `${c.slice(0, 12)}…` : `not recorded (a table built before it; lexcase index lancedb-fts ${dir} records it)`}`;
}

/**
 * Where the manifest's vector source holds an older lexcase's digest over the endpoint's query values,
 * a key's value included (core/older-query-digest.ts; shown masked): that it does and how to rewrite it.
 */
export function olderDigestNote(dir: string, m: Manifest): string | undefined {
  const source = m.dense?.source;
  if (typeof source !== 'string' || !hasKeyedQueryDigest(source)) return undefined;
  return (
    `manifest.json holds an older lexcase's unsalted sha256 over the embedding endpoint's query values, the key's value included (a copy of the index lets anyone test guessed keys against it; not shown). ` +
    `Rewrite it: lexcase index dense ${dir} --embedder openai, with the endpoint it was built with (LEXCASE_EMBED_BASE_URL): the vectors are kept, none is embedded again`
  );
}

/** The manifest as `index info --json` shows it: an older lexcase's query digest over a key's value masked. */
export function shownManifest(m: Manifest): Manifest {
  const source = m.dense?.source;
  return typeof source === 'string' && m.dense ? { ...m, dense: { ...m.dense, source: withoutKeyedQueryDigests(source) } } : m;
}

export function manifestSummary(dir: string, m: Manifest, sizes: { total: number; parts: Record<string, number> }): string {
  const a = m.analyzer;
  return [
    `index ${dir}`,
    `  corpus    ${m.corpus.name}: ${m.corpus.passages.toLocaleString('en-US')} passages (sha256 ${m.corpus.checksum.slice(0, 12)}…)`,
    ...(m.corpus.sources
      ? [
          `  sources   ${Object.entries(m.corpus.sources)
            .map(([s, n]) => `${s} ${n}`)
            .join(', ')}`,
        ]
      : []),
    ...(corpusNotes(m) ? [`  notes     ${corpusNotes(m)}`] : []),
    `  methods   ${m.methods.join(', ')}`,
    `  analyzer  ${a.preset ? `${a.preset} preset: ` : ''}lowercase=${a.lowercase} stopwords=${a.stopwords} stemmer=${a.stemmer} minTokenLength=${a.minTokenLength}`,
    ...(m.dense
      ? [
          `  dense     ${m.dense.embedder} ${m.dense.model} (dim ${m.dense.dimension}), ${describeVectorSettings(denseVectorSettings(m.dense))}${wordLimitNote(m.dense)}${tokenLimitNote(m.dense)}`,
          `  embedded  ${embeddedTextNote(m.dense)}`,
          // where the vectors came from beyond the model id (an endpoint, a model folder's digest): what a search's "another source" warning points here for
          ...(typeof m.dense.source === 'string' ? [`  vectors   from ${withoutKeyedQueryDigests(m.dense.source)}`] : []),
          // the model names the endpoint's replies gave as it embedded the passages (a server embedding with the model it has loaded)
          ...(Array.isArray(m.dense.servedModels) && m.dense.servedModels.length
            ? [`  served    replies named model ${(m.dense.servedModels as string[]).map((s) => `"${s}"`).join(', ')}`]
            : []),
          // vectors the endpoint sent without `index` fields: matched to passages only by the order they came
          ...(typeof m.dense.vectorsInArrivalOrder === 'number' && m.dense.vectorsInArrivalOrder > 0
            ? [
                `  order     ${m.dense.vectorsInArrivalOrder.toLocaleString('en-US')} of ${Number(m.dense.rows).toLocaleString('en-US')} vectors came in replies with no "index" field: matched to passages in the order they came (a server that reorders them gives passages each other's vectors)`,
              ]
            : []),
          ...(olderDigestNote(dir, m) ? [`  note      ${olderDigestNote(dir, m)}`] : []),
        ]
      : []),
    // what the lancedb-fts table indexes (titles included), as `embedded` for the dense vectors
    ...(m.methods.includes('lancedb-fts') || m.lancedbFts ? [`  full-text lancedb-fts: ${lanceFtsNote(dir, m)}`] : []),
    `  size      ${byteSize(sizes.total)} (${Object.entries(sizes.parts)
      .map(([k, v]) => `${k} ${byteSize(v)}`)
      .join(', ')})`,
    `  format    ${m.format} v${m.version}, built by lexcase ${m.lexcaseVersion} at ${m.createdAt}`,
  ].join('\n');
}

export function register(program: Command): void {
  const index = program.command('index').description('build and inspect on-disk indexes');

  addCorpusOptions(
    addDenseBuildOptions(
      index
        .command('build')
        .description(
          `build an index dir from a bundled corpus (${corpusNames().join(', ')}) or a passage file of any size (JSONL, CSV, TSV — optionally .gz — or Parquet)`,
        )
        .argument('<corpus>', 'bundled corpus name or path to a passage file / folder with passages.*')
        .requiredOption(
          '--out <dir>',
          'index directory to write: new, empty, or a lexcase index to replace (built in <dir>.tmp-<pid>, then renamed into place)',
        )
        .addOption(
          new Option(
            '--methods <list>',
            'comma list of methods to build (bm25, qld, dense, lancedb-fts; a rebuild of an existing index: these and the methods it has, a method added to it named on stderr)',
          )
            .argParser(parseUniqueListOpt('method'))
            .default(['bm25', 'qld'], 'bm25,qld'),
        )
        .option(
          '--analyzer <spec>',
          "analyzer: lucene (Lucene's StandardTokenizer, possessive, lowercase, 33 stopwords, Porter — Anserini's chain) or settings of lexcase's, e.g. stemmer=porter,stopwords=english,lowercase=true,minTokenLength=1 (stemmer: porter|snowball|none; stopwords: english (108 words)|lucene (33)|none); default lexcase's english settings, or for a rebuild of an existing index the analyzer it has",
        )
        .option('--workers <n|auto>', 'build worker threads: a number from 0 (main thread only) to 64, or auto (default): one per usable core', workersOpt)
        .option('--name <name>', 'corpus name recorded in the manifest (default: the bundled name or the file name)'),
    ),
  ).action(
    action(async (corpus: string, flags: IndexBuildFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      // SIGINT/SIGTERM: the build removes its temp dir and stops its workers; the previous index stays;
      // one line says so and the command exits 130 / 143 (action.ts exitCodeOf)
      const { whileInterruptible } = await import('../../../core/interrupt.js');
      await whileInterruptible(
        'index build',
        {
          note: existsSync(flags.out)
            ? `${flags.out} is as it was (the partial build was removed)`
            : `nothing was written (${flags.out} was not created; the partial build was removed)`,
        },
        async (signal) => {
          const { indexIn, replacedNote, replacedRecord } = await import('./index-replaced.js');
          const before = indexIn(flags.out);
          const { manifest, seconds, bytes, densePrebuilt } = await runIndexBuild(corpus, flags, signal, {
            methodsGiven: cmd.getOptionValueSource('methods') === 'cli',
          });
          const replaced = replacedRecord(before, manifest);
          output(
            g,
            { out: flags.out, seconds, bytes, manifest, ...(replaced ? { replaced } : {}), ...(densePrebuilt ? { densePrebuilt } : {}) },
            () =>
              `built ${flags.out} from ${manifest.corpus.name}: ${manifest.corpus.passages.toLocaleString('en-US')} passages${corpusNotes(manifest) ? ` (${corpusNotes(manifest)})` : ''}, methods ${manifest.methods.join(', ')}${densePrebuilt ? ` (dense from the shipped vectors ${densePrebuilt})` : ''}, ${byteSize(bytes)}, ${seconds.toFixed(1)} s${replacedNote(flags.out, replaced, manifest)}`,
          );
        },
      );
    }),
  );

  index
    .command('info')
    .description('print an index manifest summary (corpus, passage count, methods, analyzer, sizes) and verify its checksums (exit 1 if damaged)')
    .argument('<dir>', 'index directory')
    .action(
      action(async (dir: string, _flags: unknown, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const { readManifest } = await import('../../../indexer/manifest.js');
        const m = await readManifest(dir).catch((e: unknown) => {
          // no manifest to show (deleted, unreadable): `--json` still prints why, as `index verify` does
          const json = g.json ? damagedJson(dir, e) : undefined;
          if (json) process.stdout.write(`${JSON.stringify({ dir, integrity: { ...json, dir: undefined } }, null, 2)}\n`);
          throw e;
        });
        const sizes = await dirSizes(dir);
        let damaged: Awaited<ReturnType<typeof verifyIndexDir>> | undefined;
        const integrity = await verifyIndexDir(dir, (x) => (damaged = x)).catch((e: unknown) => {
          const json = g.json ? damagedJson(dir, e, damaged) : undefined;
          if (json) process.stdout.write(`${JSON.stringify({ dir: json.dir, manifest: shownManifest(m), integrity: { ...json, dir: undefined } }, null, 2)}\n`);
          throw e;
        });
        output(
          g,
          {
            dir: relative(process.cwd(), dir) || '.',
            manifest: shownManifest(m),
            ...(olderDigestNote(dir, m) ? { notes: [olderDigestNote(dir, m)] } : {}),
            bytes: sizes.total,
            parts: sizes.parts,
            integrity: { ok: true, ...verifyJson(integrity) },
          },
          () => `${manifestSummary(dir, m, sizes)}\n  ${verifySummary(integrity)}`,
        );
      }),
    );
}

/**
 * Seeded synthetic legal-ish corpus for the benchmark: Zipfian vocabulary, realistic passage lengths,
 * long bar-exam-like queries. Streams passages (an AsyncIterable) so an 856K-passage corpus never
 * sits in memory; `writeSyntheticJsonl` writes it as JSONL for engines that read a file.
 *
 * Vocabulary, by rank: English function words (what a stopword list removes) first, then a
 * legal word list, then generated pseudo-words (syllable strings) for the long tail. Token ranks
 * are drawn from a Zipf law p(r) ∝ 1/r^s (s = 1.0 by default) with Walker's alias method (O(1)
 * per token). Passage lengths are 60 + 140·mean(u1,u2,u3) words: 60–200, mean 130, bell-shaped.
 * Queries are 140–170 words; a share of their words is drawn from the legal list so that, as in
 * bar-exam fact patterns, many query terms are common in the collection.
 * Sub-seeds are the bare FNV-1a hash (core/rng.ts fnv1aSeed), as when docs/bench.md's figures were
 * measured, so the same seed and GENERATOR_VERSION still give the same corpus.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { createRng, fnv1aSeed, type Rng } from '../core/rng.js';
import type { Passage } from '../corpora/types.js';

export const GENERATOR_VERSION = 1;

export interface SyntheticOptions {
  /** Number of passages. */
  n: number;
  seed?: number;
  /** Vocabulary size (default 200,000). */
  vocabSize?: number;
  /** Zipf exponent s (default 1.0). */
  zipfExponent?: number;
  /** 'zipf': the worst case (generated words only, no function or legal words; see ZIPF_WORST). */
  profile?: CorpusProfile;
}

/**
 * Corpus profiles: 'bench' (function words, legal words, then generated words; 200K vocabulary,
 * Zipf 1.0; 140–170-word queries, 30 % legal words) and 'zipf', the worst case for an inverted
 * index: 50,000 generated tokens, Zipf s = 1.07, nothing for a stopword list or stemmer to remove
 * (indexed with stopwords and stemming off), 170-token queries drawn from the same law, so a query
 * carries the collection's most frequent terms with high multiplicity.
 */
export type CorpusProfile = 'bench' | 'zipf';
export const ZIPF_WORST = { vocabSize: 50_000, zipfExponent: 1.07, queryWords: 170 } as const;

export interface QueryOptions {
  count: number;
  seed?: number;
  vocabSize?: number;
  zipfExponent?: number;
  minWords?: number;
  maxWords?: number;
  /** Share of query words drawn uniformly from the legal word list (default 0.3). */
  legalShare?: number;
  profile?: CorpusProfile;
  /**
   * 'long' (default): the bar-exam question (140–170 words; 'zipf': 170 tokens). 'agent': what
   * CASE/MAD/ACAL advocates send, an option or a claim of 8–30 words (same word law as the long
   * queries of the profile), drawn from its own seed stream.
   */
  shape?: QueryShape;
}

export type QueryShape = 'long' | 'agent';
export const AGENT_QUERY_WORDS = { min: 8, max: 30 } as const;

const FUNCTION_WORDS = (
  'the of and to a in that is for be by as on with was it or this are at from which not an his ' +
  'have any such shall has its but had were if may no been would their all who other under he ' +
  'there upon than so when one her they them out into only those these can more about also after ' +
  'we some our what then could should did because my must being where while each up over both'
).split(' ');

const LEGAL_WORDS = (
  'court plaintiff defendant contract agreement party parties claim claims evidence trial jury judge ' +
  'judgment appeal appellate motion statute section law laws rule rules liability liable negligence ' +
  'damages breach duty property owner land title deed estate trust trustee will testator heir ' +
  'conveyance easement covenant lease landlord tenant mortgage lien creditor debtor sale buyer seller ' +
  'goods offer acceptance consideration performance condition warranty remedy injunction equity ' +
  'specific tort battery assault trespass nuisance defamation privilege consent intent reasonable ' +
  'person standard care causation proximate harm injury victim crime criminal murder manslaughter ' +
  'robbery burglary larceny theft fraud conspiracy attempt accomplice mens rea felony misdemeanor ' +
  'prosecution prosecutor defense counsel attorney client witness testimony hearsay objection ' +
  'admissible relevant prejudice exclusion search seizure warrant probable cause arrest police ' +
  'officer miranda confession suppression amendment constitution constitutional federal state ' +
  'government congress commerce clause power powers due process equal protection speech religion ' +
  'establishment free exercise regulation agency jurisdiction venue diversity citizenship complaint ' +
  'pleading discovery summary dismissal preclusion res judicata collateral estoppel joinder ' +
  'intervention class action corporation shareholder director officer partnership agent principal ' +
  'authority employer employee scope employment vicarious strict product defect manufacturer ' +
  'design warning insurance policy coverage premium indemnity contribution joint several ' +
  'comparative fault contributory assumption risk dangerous activity animal premises invitee ' +
  'licensee child trespasser attractive emotional distress intentional infliction bystander ' +
  'recovery economic loss punitive compensatory nominal restitution rescission reformation ' +
  'mistake misrepresentation duress undue influence unconscionable illegality capacity minor ' +
  'statute frauds writing signed parol modification assignment delegation beneficiary third ' +
  'anticipatory repudiation excuse impossibility impracticability frustration purpose notice ' +
  'holder negotiable instrument possession adverse hostile continuous recording bona fide ' +
  'purchaser value fixture zoning taking compensation eminent domain marital community spouse ' +
  'divorce custody support tax income deduction testimony impeachment character prior conviction ' +
  'expert opinion hearsay exception declarant statement excited utterance business records ' +
  'dying declaration against interest former habit routine authentication original document ' +
  'best evidence presumption burden proof preponderance clear convincing beyond doubt verdict ' +
  'sentence punishment cruel unusual double jeopardy self incrimination right jury counsel ' +
  'confrontation cross examination lawful unlawful valid invalid void voidable enforceable ' +
  'binding holding dictum precedent overruled affirmed reversed remanded dissent majority'
).split(' ');

/** Pronounceable pseudo-words for the long tail of the vocabulary, deterministic in the seed. */
function generatedWord(rng: Rng): string {
  const C = 'bcdfghjklmnprstvwz';
  const V = 'aeiou';
  const syllables = rng.int(2, 4);
  let w = '';
  for (let s = 0; s < syllables; s++) {
    w += C[rng.int(0, C.length - 1)] + V[rng.int(0, V.length - 1)];
    if (rng.next() < 0.3) w += C[rng.int(0, C.length - 1)];
  }
  return w;
}

const vocabCache = new Map<string, string[]>();

/**
 * The ranked vocabulary: function words, legal words (deduplicated), then generated words; with
 * `generatedOnly`, generated words alone (the 'zipf' profile).
 */
export function createVocabulary(seed: number, size: number, generatedOnly = false): string[] {
  const key = `${seed}:${size}:${generatedOnly}`;
  const cached = vocabCache.get(key);
  if (cached) return cached;
  const seen = new Set<string>();
  const words: string[] = [];
  const add = (w: string) => {
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  };
  if (!generatedOnly) {
    for (const w of FUNCTION_WORDS) add(w);
    for (const w of LEGAL_WORDS) add(w);
  }
  const rng = createRng(fnv1aSeed(seed, 'vocabulary'));
  let guard = 0;
  while (words.length < size && guard++ < size * 20) add(generatedWord(rng));
  const out = words.slice(0, size);
  vocabCache.set(key, out);
  return out;
}

export function legalWords(): readonly string[] {
  return LEGAL_WORDS;
}

/** Walker alias table for Zipf ranks 0..n-1 with p(r) ∝ 1/(r+1)^s. */
export interface ZipfSampler {
  sample(u1: number, u2: number): number;
  probability(rank: number): number;
}

export function createZipfSampler(n: number, s: number): ZipfSampler {
  const p = new Float64Array(n);
  let z = 0;
  for (let r = 0; r < n; r++) z += p[r] = 1 / (r + 1) ** s;
  for (let r = 0; r < n; r++) p[r] = p[r] / z;
  const prob = new Float64Array(n);
  const alias = new Int32Array(n);
  const scaled = new Float64Array(n);
  const small: number[] = [];
  const large: number[] = [];
  for (let r = 0; r < n; r++) {
    scaled[r] = p[r] * n;
    (scaled[r] < 1 ? small : large).push(r);
  }
  while (small.length && large.length) {
    const l = small.pop()!;
    const g = large.pop()!;
    prob[l] = scaled[l];
    alias[l] = g;
    scaled[g] = scaled[g] + scaled[l] - 1;
    (scaled[g] < 1 ? small : large).push(g);
  }
  for (const r of large) prob[r] = 1;
  for (const r of small) prob[r] = 1;
  return {
    sample(u1, u2) {
      const i = Math.min(n - 1, Math.floor(u1 * n));
      return u2 < prob[i] ? i : alias[i];
    },
    probability: (rank) => p[rank],
  };
}

/**
 * A fast 32-bit generator (mulberry32) for the per-token draws, itself seeded from core/rng.ts.
 * 111M token draws through pure-rand's uniformInt would dominate the corpus generation time.
 */
function fastUniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DEFAULTS = { seed: 42, vocabSize: 200_000, zipfExponent: 1.0 };

/** Vocabulary size, exponent and word source of a profile (explicit options win). */
function withProfile(o: { vocabSize?: number; zipfExponent?: number; profile?: CorpusProfile }) {
  const zipf = o.profile === 'zipf';
  return {
    vocabSize: o.vocabSize ?? (zipf ? ZIPF_WORST.vocabSize : DEFAULTS.vocabSize),
    zipfExponent: o.zipfExponent ?? (zipf ? ZIPF_WORST.zipfExponent : DEFAULTS.zipfExponent),
    generatedOnly: zipf,
  };
}

export function passageLength(u1: number, u2: number, u3: number): number {
  return 60 + Math.round((140 * (u1 + u2 + u3)) / 3);
}

function sentenceText(words: string[], u: () => number): string {
  // Capitalised sentences of 8–24 words, full stops: text looks like prose to a tokenizer.
  let out = '';
  let left = 0;
  for (let i = 0; i < words.length; i++) {
    let w = words[i];
    if (left === 0) {
      if (i > 0) out += '. ';
      w = w[0].toUpperCase() + w.slice(1);
      left = 8 + Math.floor(u() * 17);
    } else out += ' ';
    out += w;
    left--;
  }
  return out + '.';
}

/** Synchronous passage generator (used by the async stream and the JSONL writer). */
export function* syntheticPassagesSync(opts: SyntheticOptions): Generator<Passage> {
  const { n } = opts;
  const seed = opts.seed ?? DEFAULTS.seed;
  const o = withProfile(opts);
  const vocab = createVocabulary(seed, o.vocabSize, o.generatedOnly);
  const zipf = createZipfSampler(vocab.length, o.zipfExponent);
  const u = fastUniform(createRng(fnv1aSeed(seed, 'passages')).int(0, 0x7fffffff));
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = passageLength(u(), u(), u());
    words.length = len;
    for (let j = 0; j < len; j++) words[j] = vocab[zipf.sample(u(), u())];
    yield { id: `syn-${i}`, text: sentenceText(words, u), docId: `syn-doc-${Math.floor(i / 8)}`, source: 'synthetic' };
  }
}

/** The corpus as a stream: one passage at a time, never the whole corpus in memory. */
export async function* syntheticPassages(opts: SyntheticOptions): AsyncGenerator<Passage> {
  let i = 0;
  for (const p of syntheticPassagesSync(opts)) {
    yield p;
    // Let I/O and timers run now and then without paying an await-per-passage microtask storm.
    if (++i % 4096 === 0) await new Promise<void>((r) => setImmediate(r));
  }
}

/** Long bar-exam-like queries (fact pattern + question, 140–170 words; 'zipf': 170 Zipf tokens), or agent queries (8–30 words). */
export function syntheticQueries(opts: QueryOptions): string[] {
  const seed = opts.seed ?? DEFAULTS.seed;
  const o = withProfile(opts);
  const isZipf = opts.profile === 'zipf';
  const vocab = createVocabulary(seed, o.vocabSize, o.generatedOnly);
  const zipf = createZipfSampler(vocab.length, o.zipfExponent);
  const agent = opts.shape === 'agent';
  const rng = createRng(fnv1aSeed(seed, agent ? 'agent-queries' : 'queries'));
  const u = fastUniform(rng.int(0, 0x7fffffff));
  const minW = opts.minWords ?? (agent ? AGENT_QUERY_WORDS.min : isZipf ? ZIPF_WORST.queryWords : 140);
  const maxW = opts.maxWords ?? (agent ? AGENT_QUERY_WORDS.max : isZipf ? ZIPF_WORST.queryWords : 170);
  const legalShare = opts.legalShare ?? (isZipf ? 0 : 0.3);
  const out: string[] = [];
  for (let q = 0; q < opts.count; q++) {
    const len = minW + Math.floor(u() * (maxW - minW + 1));
    const words: string[] = new Array(len);
    for (let j = 0; j < len; j++) {
      words[j] = u() < legalShare ? LEGAL_WORDS[Math.floor(u() * LEGAL_WORDS.length)] : vocab[zipf.sample(u(), u())];
    }
    out.push(sentenceText(words, u).replace(/\.$/, '?'));
  }
  return out;
}

export interface JsonlStats {
  passages: number;
  /** UTF-8 bytes of passage text only (the "raw text size" index sizes are compared with). */
  rawTextBytes: number;
  /** Bytes of the JSONL file. */
  fileBytes: number;
  words: number;
}

/** Write the corpus as JSONL ({id,text,docId,source} per line), atomically (temp file + rename). */
export async function writeSyntheticJsonl(path: string, opts: SyntheticOptions): Promise<JsonlStats> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  const ws = createWriteStream(tmp);
  const stats: JsonlStats = { passages: 0, rawTextBytes: 0, fileBytes: 0, words: 0 };
  let buf = '';
  for (const p of syntheticPassagesSync(opts)) {
    const line = JSON.stringify(p) + '\n';
    stats.passages++;
    stats.rawTextBytes += Buffer.byteLength(p.text);
    stats.fileBytes += Buffer.byteLength(line);
    let spaces = 1;
    for (let i = 0; i < p.text.length; i++) if (p.text.charCodeAt(i) === 32) spaces++;
    stats.words += spaces;
    buf += line;
    if (buf.length > 1 << 20) {
      if (!ws.write(buf)) await once(ws, 'drain');
      buf = '';
    }
  }
  if (buf) ws.write(buf);
  ws.end();
  await once(ws, 'finish');
  await rename(tmp, path);
  return stats;
}

/**
 * Writes a tiny random-weight GGUF model at test time, so the `local` LLM provider
 * (core/llm/local/) runs real llama.cpp inference in tests with no weights committed or downloaded.
 *
 *   const file = writeTinyGguf(join(dir, 'tiny.gguf'));   // ~2 MB, the same bytes every time
 *   writeTinyGguf(file, SMALLEST_TINY_GGUF);                // 1 layer of 32 dimensions: ~0.9 MB, 2-3x cheaper per prompt
 *
 * The model: llama architecture, 2 layers, 64 dimensions, 4 heads, a SentencePiece ("llama")
 * vocabulary of about 1,900 tokens — `<unk>` `<s>` `</s>`, the 256 byte tokens `<0x00>`…`<0xFF>`,
 * the space `▁` and the 94 printable ASCII characters as pieces, `▁`-words of a few hundred common
 * English and legal words with their prefixes (so a prompt is about a third as many tokens as
 * characters, which keeps attention over long agent prompts cheap), and ChatML's `<|im_start|>`
 * `<|im_end|>` — with a ChatML chat template, F32 weights drawn from a seeded generator.
 *
 * The weights are random, with one tilt so that answers are short (tests stay fast): every token
 * embedding carries a constant in dimension 0, and the output layer's dimension-0 weights rank a
 * few tokens first (end-of-turn, then `"` `}` `]` `,` `1` `a` …). Under a JSON-schema grammar (which
 * allows end-of-turn only once the value is complete) the model therefore closes strings, arrays
 * and objects as soon as the schema allows; without one it ends its turn at once. Nothing about validity rests on the tilt: the grammar makes every
 * constrained answer schema-shaped whatever the weights.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const ALIGN = 32;
const enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

export interface TinyGgufOptions {
  layers?: number;
  dim?: number;
  heads?: number;
  ff?: number;
  contextLength?: number;
  /** Weight seed: another seed writes another (equally tiny) model. */
  seed?: number;
  name?: string;
}

const WORDS = `the of and to a in is that for it as with was on be by this are or not at from an have which
  his her their they he she we you your our one all would there been has had if will can may must
  should could other any such no more than when what who whom where into only also its them then
  these those each under upon about after before between because while did does do were out so
  most some same both first two new made make case court law legal state states statute rule rules
  evidence passage passages question answer facts fact defendant plaintiff party parties claim
  contract agreement property land owner possession title deed lease tenant landlord buyer seller
  breach damages liability negligence duty care harm injury cause proximate reasonable person
  intent criminal crime guilty murder theft burglary arson assault battery trial jury judge
  juror jurors verdict appeal motion hearsay testimony witness statement exception admissible
  objection constitutional amendment right rights federal government due process equal protection
  search seizure warrant police arrest offer acceptance consideration promise performance
  conveyance mortgage interest estate will trust heir devise option correct incorrect most likely
  hypothesis hypotheses argument arguments advocate support supports against because therefore
  however tool tools search query result results reply json object id ids analysis justification
  score reason reasoning decision outcome factor factors precedent argue abstain valid invalid
  following given based using would likely held holding issue issues apply applies applied
  jurisdiction common statutory element elements requirement required plaintiff's defendant's
  the action appropriate without circumstances another whether public but time agreed condition years
  conduct building purchase defense recorded refused judgment received accident him injuries brought
  substantial within necessary written caused knowledge properly provided house provides charged
  omitted general establish business recover writing applicable order purpose use reasonably requires
  subject through car entered personal conveyed delivered immediately injured committed testify price
  particular automobile payment conviction found owned power intended concerning value sufficient used
  attorney specific product signed prosecution authority ordinance construction established
  manufacturer testified over relevant beneficiary residential suffered pay three stated manufactured
  constitutionality doctrine prove individual generally persons several shall called provision part
  later prevail information during said private children thereafter requirements unless certain
  executed street instrument either conditions offered asserts statements promptly being interests
  determine record purchased terms defined probably matter supra letter paid intentional notice
  contained sale located delivery exercise large available specified apartment substantially consent
  simple death purposes entitled assignment admitted development warranty contracted easement course
  cannot negligent defendants making present relationship amount existence life office school struck
  prosecutor provisions activity subsequent prior discovered material suit governmental act perform
  promised license interstate commerce child specifications including character having unreasonable
  subsequently application defective officer basis real probable language work city restrictions
  ground collision commercial asserted asked classification violation money proper sold denied third
  traffic best religious otherwise employees purchaser premises computer identification driving
  determining year unconstitutional told courts even control dangerous failure original manslaughter
  home closing see obligation tract period assume district demanded until equipment investigation
  burden effect decided document contracts emotional market liable five officers complete accomplice
  principal months considered medical permitted standard employee sell examination transaction
  subdivision recognized store completion front according operation convicted actual accepted charge
  cases lots privilege questions additional arrested died accept determination further conspiracy
  foreseeable activities plaintiffs enforcement known opportunity strict failed damage offense
  sustained declarant second employment days test opinion prevent place occurred notified expressly
  intention thereupon determined legislation day intentionally insanity although ordinary distress
  defect clause remainder orally express implied risk sued previously unlawful believed payments
  responsible alleged company recording insurance strongest take policy included judicial filed
  adverse provide killing vehicle enforceable requiring local fee physical position anything require
  neighbor discretion completed event benefit limited lot return obtained offers clear light took
  essential manner ownership killed exchange driveway contractual show inconsistent though design
  became members robbery never performed quotation telephone tendered good claims nature placed
  enforce back protect full description negligently independent knew form directly returned services
  programs degree effective contributory proposed clearly example actions taking involved reliance
  daughter principle saw resulting prohibits congressional include adopted goods inspection himself
  created deliver commission contractor resolution interference convey well door next assigns number
  family equitable consequence legislative left reputation down means constitute`;

/** The token strings of the tiny vocabulary (ids are indices). */
export function tinyVocab(): { tokens: string[]; types: number[]; eos: number; bos: number; unk: number } {
  const tokens: string[] = ['<unk>', '<s>', '</s>'];
  const types: number[] = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  tokens.push('\u2581');
  types.push(1);
  for (let c = 0x21; c <= 0x7e; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  const seen = new Set(tokens);
  for (const w of WORDS.split(/\s+/).filter(Boolean))
    for (let i = 1; i <= w.length; i++) {
      const piece = `\u2581${w.slice(0, i)}`;
      if (seen.has(piece)) continue;
      seen.add(piece);
      tokens.push(piece);
      types.push(1);
    }
  tokens.push('<|im_start|>', '<|im_end|>');
  types.push(3, 3);
  return { tokens, types, eos: tokens.length - 1, bos: 1, unk: 0 };
}

export const TINY_CHAT_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** mulberry32: a small seeded generator (the file's bytes depend on the seed only). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Writer {
  private chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(): void {
    const n = (ALIGN - (this.size % ALIGN)) % ALIGN;
    if (n) this.push(Buffer.alloc(n));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type Kv = [string, T.U32 | T.I32 | T.F32 | T.BOOL | T.STRING, number | string | boolean] | [string, T.ARRAY, T.STRING | T.F32 | T.I32, (string | number)[]];

function writeKv(w: Writer, kv: Kv): void {
  w.str(kv[0]);
  w.u32(kv[1]);
  const put = (type: T, v: string | number | boolean) => {
    if (type === T.U32) w.u32(v as number);
    else if (type === T.I32) w.i32(v as number);
    else if (type === T.F32) w.f32(v as number);
    else if (type === T.BOOL) w.push(Buffer.from([v ? 1 : 0]));
    else w.str(v as string);
  };
  if (kv[1] === T.ARRAY) {
    w.u32(kv[2]);
    w.u64(kv[3].length);
    for (const v of kv[3]) put(kv[2], v);
  } else put(kv[1], kv[2]);
}

/**
 * A smaller model still: 1 layer of 32 dimensions. The systems' prompts run to 4,000-7,500 tokens and
 * a local run's CPU is evaluating them (attention: layers x dimensions x tokens^2), not generating:
 * profiled, `lexcase run mad --limit 2` (26 requests, 147k prompt tokens, 17-220 generated tokens
 * each, every one ended by the grammar) took 26 s of CPU on the default model, 10-11 s on this one.
 * Its answers are as schema-valid, but more of its strings are empty (the tilt wins at once), so
 * a check that needs non-empty free text from the model (3-ply's single agent writes the three
 * plies as strings) keeps the default model.
 */
export const SMALLEST_TINY_GGUF: TinyGgufOptions = { layers: 1, dim: 32, heads: 2, ff: 64 };

/** Write the tiny model to `file` (creating its folder); returns `file`. Same options, same bytes. */
export function writeTinyGguf(file: string, o: TinyGgufOptions = {}): string {
  const layers = o.layers ?? 2;
  const dim = o.dim ?? 64;
  const heads = o.heads ?? 4;
  const ff = o.ff ?? 128;
  const ctx = o.contextLength ?? 32768;
  const vocab = tinyVocab();
  const nVocab = vocab.tokens.length;
  const rand = rng(o.seed ?? 42);
  const gauss = (scale: number) => (rand() + rand() + rand() - 1.5) * scale;

  // the tilt (see the module doc): the first tokens here get the largest dimension-0 output weight
  const preferred = ['<|im_end|>', '"', '}', ']', ',', '1', 'a', ':'];
  const tensors: { name: string; dims: number[]; data: Float32Array }[] = [];
  const tensor = (name: string, dims: number[], fill: (i: number) => number) => {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = fill(i);
    tensors.push({ name, dims, data });
  };
  tensor('token_embd.weight', [dim, nVocab], (i) => (i % dim === 0 ? 4 : gauss(0.3)));
  for (let l = 0; l < layers; l++) {
    tensor(`blk.${l}.attn_norm.weight`, [dim], () => 1);
    for (const m of ['attn_q', 'attn_k', 'attn_v']) tensor(`blk.${l}.${m}.weight`, [dim, dim], () => gauss(0.3));
    tensor(`blk.${l}.attn_output.weight`, [dim, dim], () => gauss(0.05));
    tensor(`blk.${l}.ffn_norm.weight`, [dim], () => 1);
    tensor(`blk.${l}.ffn_gate.weight`, [dim, ff], () => gauss(0.3));
    tensor(`blk.${l}.ffn_up.weight`, [dim, ff], () => gauss(0.3));
    tensor(`blk.${l}.ffn_down.weight`, [ff, dim], () => gauss(0.05));
  }
  tensor('output_norm.weight', [dim], () => 1);
  const rank = new Map(preferred.map((t, i) => [vocab.tokens.indexOf(t), preferred.length - i]));
  tensor('output.weight', [dim, nVocab], (i) => {
    const token = Math.floor(i / dim);
    if (i % dim !== 0) return gauss(0.3);
    return rank.has(token) ? 0.2 * rank.get(token)! : gauss(0.3);
  });

  const kvs: Kv[] = [
    ['general.architecture', T.STRING, 'llama'],
    ['general.name', T.STRING, o.name ?? 'lexcase-tiny-random'],
    ['general.file_type', T.U32, 0],
    ['general.alignment', T.U32, ALIGN],
    ['llama.context_length', T.U32, ctx],
    ['llama.embedding_length', T.U32, dim],
    ['llama.block_count', T.U32, layers],
    ['llama.feed_forward_length', T.U32, ff],
    ['llama.attention.head_count', T.U32, heads],
    ['llama.attention.head_count_kv', T.U32, heads],
    ['llama.rope.dimension_count', T.U32, dim / heads],
    ['llama.attention.layer_norm_rms_epsilon', T.F32, 1e-5],
    ['llama.vocab_size', T.U32, nVocab],
    ['tokenizer.ggml.model', T.STRING, 'llama'],
    ['tokenizer.ggml.tokens', T.ARRAY, T.STRING, vocab.tokens],
    ['tokenizer.ggml.scores', T.ARRAY, T.F32, vocab.tokens.map((_, i) => -i)],
    ['tokenizer.ggml.token_type', T.ARRAY, T.I32, vocab.types],
    ['tokenizer.ggml.bos_token_id', T.U32, vocab.bos],
    ['tokenizer.ggml.eos_token_id', T.U32, vocab.eos],
    ['tokenizer.ggml.unknown_token_id', T.U32, vocab.unk],
    ['tokenizer.ggml.add_bos_token', T.BOOL, false],
    ['tokenizer.ggml.add_space_prefix', T.BOOL, false],
    ['tokenizer.chat_template', T.STRING, TINY_CHAT_TEMPLATE],
  ];

  const w = new Writer();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kvs.length);
  for (const kv of kvs) writeKv(w, kv);
  let offset = 0;
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // F32
    w.u64(offset);
    offset += t.data.byteLength;
    offset += (ALIGN - (offset % ALIGN)) % ALIGN;
  }
  w.pad();
  for (const t of tensors) {
    w.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.pad();
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, w.bytes());
  return file;
}

/**
 * The Universal Sentence Encoder lite's forward pass written out: the same weights (read from the
 * package's model.json and shards, use-lite-weights.ts), the same token ids (use-lite-tokenizer.ts,
 * the package's tokenizer without tfjs), the graph's arithmetic in float32 — matrix products in WebAssembly (kernel/gemm.wat),
 * the rest in TypeScript. It replaces tfjs' `executeAsync` of the 317-node graph (~256 kernels per
 * query, most of them shape bookkeeping) with ~30 kernel calls, and skips one product the graph
 * does per token: the encoder output is the mean over tokens of the last layer's residual stream,
 * and that layer's second FFN matrix is linear, so it is applied once to the mean instead of to
 * every token. Vectors agree with the tfjs graph within ~1e-6 per coordinate
 * (use-lite-direct.test.ts checks 1e-5 on real queries and passages).
 *
 * The graph, for one text of T tokens (T ≤ 128: ClipToMaxLength drops later tokens):
 *   x0 = e + (e + timing)        e = Embeddings[id], timing = [sin(p·inv), cos(p·inv)] (256)
 *   layer 0 (256 → 512), pre-norm:
 *     x1 = x0·Wd + bd + Attn(LN(x0))·Wo + bo     (4 heads of 64; q scaled by 0.125)
 *     x2 = x1 + relu(LN(x1)·W1 + b1)·W2 + b2     (512 → 1536 → 512)
 *   layer 1 (512): x3 = x2 + Attn(LN(x2))·Wo + bo (4 heads of 128); x4 = x3 + FFN(LN(x3))
 *   out = l2normalize(tanh(mean_t(x4)·Wt + bt))
 * No token is masked for one text (the graph's mask is id > −1), so attention has no bias.
 */
import { errors } from '../../core/errors.js';
import { GEMM_ACCUMULATE, GEMM_RELU, gemmKernel } from './kernel/gemm.js';
import { UseLiteTokenizer } from './use-lite-tokenizer.js';
import { readUseLiteFiles, type UseLiteFiles } from './use-lite-weights.js';

const K = 'module_apply_default/Encoder_en/KonaTransformer/';
const E = K + 'Encode/';
const S = E + 'TransformerStack/';
const M = 'module/Encoder_en/KonaTransformer/Encode/';
const HEADS = 4;

export interface UseLiteDirect {
  /** Token ids of a text (exactly the package's SentencePiece tokenizer's). */
  tokenize(text: string): number[];
  /**
   * The sentence vector of token ids; only the first `maxTokens` are read, as the graph does. No
   * tokens (an empty text) give the graph's vector for a zero mean, tanh(bias) normalised — what
   * tfjs returns for an empty text inside a batch (alone, its graph refuses an empty input).
   */
  encode(ids: number[]): Float32Array;
  /** The graph's length limit (128). */
  readonly maxTokens: number;
}

interface Layer {
  d: number;
  dh: number;
  qScale: number;
  lnA: [Float32Array, Float32Array];
  lnF: [Float32Array, Float32Array];
  qkv: number;
  bQkv: number;
  out: number;
  bOut: number;
  w1: number;
  b1: number;
  w2: number;
  b2: number;
}

export async function loadUseLiteDirect(files?: UseLiteFiles): Promise<UseLiteDirect> {
  const { tensors, vocabulary } = files ?? (await readUseLiteFiles());
  const get = (name: string, shape: number[]): Float32Array => {
    const t = tensors.get(name);
    if (!t || !(t.data instanceof Float32Array) || t.shape.join(',') !== shape.join(',')) {
      throw errors.embedderUnavailable(`use-lite direct forward pass: weight ${name} ${t ? `has shape [${t.shape}]` : 'is missing'}, expected [${shape}]`);
    }
    return t.data;
  };
  const scalar = (name: string): number => {
    const t = tensors.get(name);
    if (!t || t.data.length !== 1) throw errors.embedderUnavailable(`use-lite direct forward pass: constant ${name} is missing`);
    return t.data[0];
  };

  const embeddings = get('module/Embeddings_en', [8002, 256]);
  const invTimescales = get(S + 'Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1', [1, 128]);
  const eps = scalar(S + 'Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x');
  const maxTokens = scalar(K + 'ClipToMaxLength/Less/y');
  const l2Eps = scalar('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y');
  if (scalar(E + 'SparseToDense/default_value') !== -1)
    throw errors.embedderUnavailable('use-lite direct forward pass: the graph masks tokens differently than this pass assumes');

  // Linear memory: packed weights, biases, then scratch sized for maxTokens.
  let top = 0;
  const alloc = (floats: number) => {
    const off = top;
    top += Math.ceil((floats * 4) / 64) * 64;
    return off;
  };
  const pending: Array<() => void> = [];
  const staging = alloc(1536 * 512); // one matrix at a time, row-major, before packing
  // A weight matrix [inDim, outDim] row-major goes in packed B layout; a bias as is.
  const matrix = (name: string, shape: number[], inDim: number, outDim: number) => {
    const src = get(name, shape);
    const off = alloc(inDim * outDim);
    pending.push(() => {
      f.set(src, staging / 4);
      kernel.packB(staging, outDim * 4, inDim, outDim, outDim, 0, off);
    });
    return off;
  };
  const vector = (name: string, n: number) => {
    const src = get(name, [n]);
    const off = alloc(n);
    pending.push(() => f.set(src, off / 4));
    return off;
  };
  const layer = (l: number, dIn: number, d: number): Layer => {
    const T = `Layer_${l}/TransformerLayer/`;
    const lnName = (ffn: boolean, part: 'scale' | 'bias') =>
      `${E}${T}${ffn ? 'FFN/' : ''}layer_prepostprocess/layer_norm/layer_norm_${part}/ConcatPartitions/concat`;
    const dh = scalar(S + `Layer_${l}/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`);
    if (dh * HEADS !== dIn) throw errors.embedderUnavailable(`use-lite direct forward pass: layer ${l} has ${dIn / dh} heads, expected ${HEADS}`);
    return {
      d: dIn,
      dh,
      qScale: scalar(S + `${T}MultiheadAttention/mul/y`),
      lnA: [get(lnName(false, 'scale'), [dIn]), get(lnName(false, 'bias'), [dIn])],
      lnF: [get(lnName(true, 'scale'), [d]), get(lnName(true, 'bias'), [d])],
      qkv: matrix(`${M}${T}MultiheadAttention/qkv_transform_single/kernel/part_0`, [1, 1, dIn, 3 * dIn], dIn, 3 * dIn),
      bQkv: vector(`${E}${T}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, 3 * dIn),
      out: matrix(`${M}${T}MultiheadAttention/output_transform_single/kernel/part_0`, [1, 1, dIn, d], dIn, d),
      bOut: vector(`${E}${T}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, d),
      w1: matrix(`${S}${T}FFN/conv1/Tensordot/Reshape_1`, [d, 1536], d, 1536),
      b1: vector(`${E}${T}FFN/conv1/bias/ConcatPartitions/concat`, 1536),
      w2: matrix(`${S}${T}FFN/conv2/Tensordot/Reshape_1`, [1536, d], 1536, d),
      b2: vector(`${E}${T}FFN/conv2/bias/ConcatPartitions/concat`, d),
    };
  };
  const L0 = layer(0, 256, 512);
  const L1 = layer(1, 512, 512);
  const wRes = matrix(E + 'Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat', [256, 512], 256, 512);
  const bRes = vector(E + 'Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat', 512);
  const wTanh = matrix('module/Encoder_en/hidden_layers/tanh_layer_0/weights', [512, 512], 512, 512);
  const bTanh = vector('module/Encoder_en/hidden_layers/tanh_layer_0/bias', 512);

  // The timing signal of every position the graph keeps: [sin(p·inv) (128), cos(p·inv) (128)], float32.
  const timing = new Float32Array(maxTokens * 256);
  for (let t = 0; t < maxTokens; t++) {
    for (let c = 0; c < 128; c++) {
      const a = Math.fround(t * invTimescales[c]);
      timing[t * 256 + c] = Math.sin(a);
      timing[t * 256 + 128 + c] = Math.cos(a);
    }
  }

  const T8 = Math.ceil(maxTokens / 8) * 8;
  const zero = alloc(1536);
  const X0 = alloc(T8 * 256); // layer 0 input, row-major
  const XR = alloc(T8 * 512); // residual stream, row-major
  const QKV = alloc(T8 * 1536);
  const O = alloc(T8 * 512); // attention heads combined
  const H = alloc(T8 * 1536); // FFN hidden
  const AP = alloc(T8 * 1536); // packed A
  const AH = alloc(T8 * T8 + T8 * 128); // packed A inside attention (q of a head, then its softmax)
  const BH = alloc(T8 * 128 + T8 * 128); // packed B inside attention (k transposed, then v)
  const SC = alloc(T8 * T8); // attention logits
  const PA = alloc(4 * 1536); // pooled rows, packed A (one real row)
  const PC = alloc(512);
  const kernel = gemmKernel(top);
  const f = new Float32Array(kernel.memory.buffer);
  for (const fill of pending) fill();

  // Tokenizer: ids exactly the package's (use-lite-tokenizer.test.ts), without loading tfjs.
  const tokenizer = new UseLiteTokenizer(vocabulary);

  /** LN over the d columns of rows < n of row-major src (float index), into packed A at AP, rows up to m zero. */
  const layerNorm = (src: number, d: number, n: number, m: number, [scale, bias]: [Float32Array, Float32Array]) => {
    const dst = AP / 4;
    for (let t = 0; t < m; t++) {
      const o = dst + (t >> 2) * d * 4 + (t & 3);
      if (t >= n) {
        for (let c = 0; c < d; c++) f[o + c * 4] = 0;
        continue;
      }
      const row = src / 4 + t * d;
      let mean = 0;
      for (let c = 0; c < d; c++) mean += f[row + c];
      mean = Math.fround(mean / d);
      let v = 0;
      for (let c = 0; c < d; c++) {
        const x = Math.fround(f[row + c] - mean);
        v += x * x;
      }
      const r = 1 / Math.sqrt(Math.fround(Math.fround(v / d) + eps));
      for (let c = 0; c < d; c++) f[o + c * 4] = Math.fround(scale[c] * r) * Math.fround(f[row + c] - mean) + bias[c];
    }
  };

  /** Multi-head self-attention over rows < n of QKV (row stride 3d), heads combined into O (row stride d). */
  const attention = (L: Layer, n: number, m: number) => {
    const { d, dh } = L;
    const ld = 3 * d * 4;
    const n8 = Math.ceil(n / 8) * 8;
    for (let h = 0; h < HEADS; h++) {
      kernel.packA(QKV + h * dh * 4, ld, n, m, dh, L.qScale, AH);
      kernel.packB(QKV + (d + h * dh) * 4, ld, dh, n, n8, 1, BH);
      kernel.gemm(AH, BH, SC, n8 * 4, zero, n, dh, n8, 0);
      // Softmax of each row over the n keys, in place, then packed as A (rows ≥ n zero; scale 1 is exact).
      for (let t = 0; t < n; t++) {
        const row = SC / 4 + t * n8;
        let max = -Infinity;
        for (let j = 0; j < n; j++) if (f[row + j] > max) max = f[row + j];
        let sum = 0;
        for (let j = 0; j < n; j++) {
          const e = Math.fround(Math.exp(f[row + j] - max));
          f[row + j] = e;
          sum += e;
        }
        // One reciprocal per row instead of n divisions (within an ulp of dividing).
        const inv = 1 / Math.fround(sum);
        for (let j = 0; j < n; j++) f[row + j] *= inv;
      }
      kernel.packA(SC, n8 * 4, n, m, n, 1, AH);
      kernel.packB(QKV + (2 * d + h * dh) * 4, ld, n, dh, dh, 0, BH);
      kernel.gemm(AH, BH, O + h * dh * 4, d * 4, zero, n, n, dh, 0);
    }
  };

  const encode = (allIds: number[]): Float32Array => {
    const n = Math.min(allIds.length, maxTokens);
    if (n === 0) return finish(new Float32Array(512));
    const m = Math.ceil(n / 4) * 4;
    // x0 = e + (e + timing), as the graph adds them (Scatter(e) + Scatter(GatherNd(e) + signal)).
    const x0 = X0 / 4;
    for (let t = 0; t < n; t++) {
      const id = allIds[t];
      if (!Number.isInteger(id) || id < 0 || id >= 8002) throw errors.invalidInput('ids', `token id ${id} is outside the vocabulary`);
      const e = id * 256;
      const row = x0 + t * 256;
      const sig = t * 256;
      for (let c = 0; c < 256; c++) {
        const v = embeddings[e + c];
        f[row + c] = v + Math.fround(v + timing[sig + c]);
      }
    }
    // Layer 0.
    layerNorm(X0, 256, n, m, L0.lnA);
    kernel.gemm(AP, L0.qkv, QKV, 768 * 4, L0.bQkv, n, 256, 768, 0);
    attention(L0, n, m);
    kernel.packA(X0, 256 * 4, n, m, 256, 1, AP);
    kernel.gemm(AP, wRes, XR, 512 * 4, bRes, n, 256, 512, 0);
    kernel.packA(O, 256 * 4, n, m, 256, 1, AP);
    kernel.gemm(AP, L0.out, XR, 512 * 4, L0.bOut, n, 256, 512, GEMM_ACCUMULATE);
    layerNorm(XR, 512, n, m, L0.lnF);
    kernel.gemm(AP, L0.w1, H, 1536 * 4, L0.b1, n, 512, 1536, GEMM_RELU);
    kernel.packA(H, 1536 * 4, n, m, 1536, 1, AP);
    kernel.gemm(AP, L0.w2, XR, 512 * 4, L0.b2, n, 1536, 512, GEMM_ACCUMULATE);
    // Layer 1.
    layerNorm(XR, 512, n, m, L1.lnA);
    kernel.gemm(AP, L1.qkv, QKV, 1536 * 4, L1.bQkv, n, 512, 1536, 0);
    attention(L1, n, m);
    kernel.packA(O, 512 * 4, n, m, 512, 1, AP);
    kernel.gemm(AP, L1.out, XR, 512 * 4, L1.bOut, n, 512, 512, GEMM_ACCUMULATE);
    layerNorm(XR, 512, n, m, L1.lnF);
    kernel.gemm(AP, L1.w1, H, 1536 * 4, L1.b1, n, 512, 1536, GEMM_RELU);
    // mean_t(x4) = mean_t(x3) + mean_t(hidden)·W2 + b2: the last product once, on the mean.
    const pa = PA / 4;
    const hSum = new Float64Array(1536);
    for (let t = 0; t < n; t++) {
      const row = H / 4 + t * 1536;
      for (let c = 0; c < 1536; c++) hSum[c] += f[row + c];
    }
    f.fill(0, pa, pa + 4 * 1536);
    for (let c = 0; c < 1536; c++) f[pa + c * 4] = hSum[c] / n;
    kernel.gemm(PA, L1.w2, PC, 512 * 4, L1.b2, 1, 1536, 512, 0);
    const xSum = new Float64Array(512);
    for (let t = 0; t < n; t++) {
      const row = XR / 4 + t * 512;
      for (let c = 0; c < 512; c++) xSum[c] += f[row + c];
    }
    const pooled = new Float32Array(512);
    for (let c = 0; c < 512; c++) pooled[c] = xSum[c] / n + f[PC / 4 + c];
    return finish(pooled);
  };

  /** tanh layer and l2 normalisation of the pooled vector. */
  const finish = (pooled: Float32Array): Float32Array => {
    const pa = PA / 4;
    f.fill(0, pa, pa + 4 * 512);
    for (let c = 0; c < 512; c++) f[pa + c * 4] = pooled[c];
    kernel.gemm(PA, wTanh, PC, 512 * 4, bTanh, 1, 512, 512, 0);
    const out = new Float32Array(512);
    let ss = 0;
    for (let c = 0; c < 512; c++) {
      const v = Math.fround(Math.tanh(f[PC / 4 + c]));
      out[c] = v;
      ss += v * v;
    }
    const r = 1 / Math.sqrt(Math.max(ss, l2Eps));
    for (let c = 0; c < 512; c++) out[c] *= r;
    return out;
  };

  return { tokenize: (text) => tokenizer.encode(text), encode, maxTokens };
}

/**
 * Multiply-adds the direct pass spends on a text of `tokens` token ids (clipped to 128), counted
 * from the model's shapes as the products above run them: layer 0 (d 256 → 512, 4 heads of 64):
 * qkv n·256·768, scores and weighted values 2·4·n·n·64, residual dense and attention output
 * 2·n·256·512, FFN n·512·1536 + n·1536·512; layer 1 (d 512, 4 heads of 128): qkv n·512·1536,
 * attention 2·4·n·n·128, output n·512·512, FFN in n·512·1536, FFN out once on the mean 1536·512;
 * tanh layer 512·512. Rows padded for the kernel are not counted (they are the kernel's waste).
 * At 128 tokens: 521,142,272.
 */
export function useLiteMacsPerText(tokens: number, maxTokens = 128): number {
  const n = Math.min(tokens, maxTokens);
  if (n === 0) return 512 * 512;
  const layer0 = n * 256 * 768 + 2 * HEADS * n * n * 64 + 2 * n * 256 * 512 + 2 * n * 512 * 1536;
  const layer1 = n * 512 * 1536 + 2 * HEADS * n * n * 128 + n * 512 * 512 + n * 512 * 1536 + 1536 * 512;
  return layer0 + layer1 + 512 * 512;
}

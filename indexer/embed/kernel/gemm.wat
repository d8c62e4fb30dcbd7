;; lexcase use-lite encoder kernels (indexer/embed/kernel/gemm.ts; built into gemm-wasm.ts by
;; `npm run build:kernel`): a float32 matrix product with 128-bit SIMD and the packings it reads.
;; use-lite-direct.ts runs the Universal Sentence Encoder lite's forward pass with them.
;;
;; Layouts (all float32, byte offsets into the one linear memory):
;; - packed A: [ceil(M/4)][K][4] — four rows interleaved, so one k step loads the four rows' values
;;   with static offsets; packA pads the last block with zero rows.
;; - packed B: [N/8][K][8] — panels of eight columns, each read front to back once per row block.
;; - C: row-major, row stride ldc bytes.
(module
  (import "env" "mem" (memory 1))

  ;; C[i, j] = bias[j] + sum_k A[i, k] * B[k, j]  (flags bit 0: relu; bit 1: C[i, j] += that instead)
  ;; for i < M (multiple of 4), j < N (multiple of 8), K >= 1.
  (func (export "gemm") (param $a i32) (param $b i32) (param $c i32) (param $ldc i32) (param $bias i32)
        (param $M i32) (param $K i32) (param $N i32) (param $flags i32)
    (local $p i32) (local $i i32) (local $k i32) (local $ap i32) (local $bp i32) (local $cp i32)
    (local $bpanel i32) (local $abytes i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $c4 v128) (local $c5 v128) (local $c6 v128) (local $c7 v128)
    (local $b0 v128) (local $b1 v128) (local $x v128) (local $bi0 v128) (local $bi1 v128)
    (local.set $abytes (i32.shl (local.get $K) (i32.const 4)))
    (local.set $bpanel (local.get $b))
    (local.set $p (i32.const 0))
    (block $pdone (loop $panels
      (br_if $pdone (i32.ge_u (local.get $p) (local.get $N)))
      (local.set $bi0 (v128.load (i32.add (local.get $bias) (i32.shl (local.get $p) (i32.const 2)))))
      (local.set $bi1 (v128.load offset=16 (i32.add (local.get $bias) (i32.shl (local.get $p) (i32.const 2)))))
      (local.set $i (i32.const 0))
      (block $idone (loop $rows
        (br_if $idone (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $M)))
        (local.set $c0 (local.get $bi0)) (local.set $c1 (local.get $bi1))
        (local.set $c2 (local.get $bi0)) (local.set $c3 (local.get $bi1))
        (local.set $c4 (local.get $bi0)) (local.set $c5 (local.get $bi1))
        (local.set $c6 (local.get $bi0)) (local.set $c7 (local.get $bi1))
        (local.set $ap (i32.add (local.get $a) (i32.mul (i32.shr_u (local.get $i) (i32.const 2)) (local.get $abytes))))
        (local.set $bp (local.get $bpanel))
        (local.set $k (local.get $K))
        (loop $ks
          (local.set $b0 (v128.load (local.get $bp)))
          (local.set $b1 (v128.load offset=16 (local.get $bp)))
          (local.set $x (v128.load32_splat (local.get $ap)))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $x (v128.load32_splat offset=4 (local.get $ap)))
          (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $x (v128.load32_splat offset=8 (local.get $ap)))
          (local.set $c4 (f32x4.add (local.get $c4) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c5 (f32x4.add (local.get $c5) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $x (v128.load32_splat offset=12 (local.get $ap)))
          (local.set $c6 (f32x4.add (local.get $c6) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c7 (f32x4.add (local.get $c7) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $ap (i32.add (local.get $ap) (i32.const 16)))
          (local.set $bp (i32.add (local.get $bp) (i32.const 32)))
          (br_if $ks (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (local.set $cp (i32.add (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $ldc))) (i32.shl (local.get $p) (i32.const 2))))
        (if (i32.and (local.get $flags) (i32.const 2)) (then
          (local.set $c0 (f32x4.add (local.get $c0) (v128.load (local.get $cp))))
          (local.set $c1 (f32x4.add (local.get $c1) (v128.load offset=16 (local.get $cp))))
          (local.set $c2 (f32x4.add (local.get $c2) (v128.load (i32.add (local.get $cp) (local.get $ldc)))))
          (local.set $c3 (f32x4.add (local.get $c3) (v128.load offset=16 (i32.add (local.get $cp) (local.get $ldc)))))
          (local.set $c4 (f32x4.add (local.get $c4) (v128.load (i32.add (local.get $cp) (i32.shl (local.get $ldc) (i32.const 1))))))
          (local.set $c5 (f32x4.add (local.get $c5) (v128.load offset=16 (i32.add (local.get $cp) (i32.shl (local.get $ldc) (i32.const 1))))))
          (local.set $c6 (f32x4.add (local.get $c6) (v128.load (i32.add (local.get $cp) (i32.mul (local.get $ldc) (i32.const 3))))))
          (local.set $c7 (f32x4.add (local.get $c7) (v128.load offset=16 (i32.add (local.get $cp) (i32.mul (local.get $ldc) (i32.const 3))))))))
        (if (i32.and (local.get $flags) (i32.const 1)) (then
          (local.set $x (v128.const i32x4 0 0 0 0))
          (local.set $c0 (f32x4.max (local.get $c0) (local.get $x)))
          (local.set $c1 (f32x4.max (local.get $c1) (local.get $x)))
          (local.set $c2 (f32x4.max (local.get $c2) (local.get $x)))
          (local.set $c3 (f32x4.max (local.get $c3) (local.get $x)))
          (local.set $c4 (f32x4.max (local.get $c4) (local.get $x)))
          (local.set $c5 (f32x4.max (local.get $c5) (local.get $x)))
          (local.set $c6 (f32x4.max (local.get $c6) (local.get $x)))
          (local.set $c7 (f32x4.max (local.get $c7) (local.get $x)))))
        (v128.store (local.get $cp) (local.get $c0))
        (v128.store offset=16 (local.get $cp) (local.get $c1))
        (local.set $cp (i32.add (local.get $cp) (local.get $ldc)))
        (v128.store (local.get $cp) (local.get $c2))
        (v128.store offset=16 (local.get $cp) (local.get $c3))
        (local.set $cp (i32.add (local.get $cp) (local.get $ldc)))
        (v128.store (local.get $cp) (local.get $c4))
        (v128.store offset=16 (local.get $cp) (local.get $c5))
        (local.set $cp (i32.add (local.get $cp) (local.get $ldc)))
        (v128.store (local.get $cp) (local.get $c6))
        (v128.store offset=16 (local.get $cp) (local.get $c7))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $rows)))
      ;; Two of the last rows (lanes 0 and 1 of the last block).
      (if (i32.le_u (i32.add (local.get $i) (i32.const 2)) (local.get $M)) (then
        (local.set $c0 (local.get $bi0)) (local.set $c1 (local.get $bi1))
        (local.set $c2 (local.get $bi0)) (local.set $c3 (local.get $bi1))
        (local.set $ap (i32.add (local.get $a) (i32.mul (i32.shr_u (local.get $i) (i32.const 2)) (local.get $abytes))))
        (local.set $bp (local.get $bpanel))
        (local.set $k (local.get $K))
        (loop $ks2
          (local.set $b0 (v128.load (local.get $bp)))
          (local.set $b1 (v128.load offset=16 (local.get $bp)))
          (local.set $x (v128.load32_splat (local.get $ap)))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $x (v128.load32_splat offset=4 (local.get $ap)))
          (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $ap (i32.add (local.get $ap) (i32.const 16)))
          (local.set $bp (i32.add (local.get $bp) (i32.const 32)))
          (br_if $ks2 (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (local.set $cp (i32.add (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $ldc))) (i32.shl (local.get $p) (i32.const 2))))
        (if (i32.and (local.get $flags) (i32.const 2)) (then
          (local.set $c0 (f32x4.add (local.get $c0) (v128.load (local.get $cp))))
          (local.set $c1 (f32x4.add (local.get $c1) (v128.load offset=16 (local.get $cp))))
          (local.set $c2 (f32x4.add (local.get $c2) (v128.load (i32.add (local.get $cp) (local.get $ldc)))))
          (local.set $c3 (f32x4.add (local.get $c3) (v128.load offset=16 (i32.add (local.get $cp) (local.get $ldc)))))))
        (if (i32.and (local.get $flags) (i32.const 1)) (then
          (local.set $x (v128.const i32x4 0 0 0 0))
          (local.set $c0 (f32x4.max (local.get $c0) (local.get $x)))
          (local.set $c1 (f32x4.max (local.get $c1) (local.get $x)))
          (local.set $c2 (f32x4.max (local.get $c2) (local.get $x)))
          (local.set $c3 (f32x4.max (local.get $c3) (local.get $x)))))
        (v128.store (local.get $cp) (local.get $c0))
        (v128.store offset=16 (local.get $cp) (local.get $c1))
        (local.set $cp (i32.add (local.get $cp) (local.get $ldc)))
        (v128.store (local.get $cp) (local.get $c2))
        (v128.store offset=16 (local.get $cp) (local.get $c3))))
      ;; The last row (lane 0 or 2 of the last block).
      (if (i32.lt_u (i32.add (local.get $i) (i32.and (i32.sub (local.get $M) (local.get $i)) (i32.const 2))) (local.get $M)) (then
        (local.set $c0 (local.get $bi0)) (local.set $c1 (local.get $bi1))
        (local.set $ap (i32.add (i32.add (local.get $a) (i32.mul (i32.shr_u (local.get $i) (i32.const 2)) (local.get $abytes)))
                                (i32.shl (i32.and (i32.sub (local.get $M) (local.get $i)) (i32.const 2)) (i32.const 2))))
        (local.set $bp (local.get $bpanel))
        (local.set $k (local.get $K))
        (loop $ks1
          (local.set $b0 (v128.load (local.get $bp)))
          (local.set $b1 (v128.load offset=16 (local.get $bp)))
          (local.set $x (v128.load32_splat (local.get $ap)))
          (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (local.get $x) (local.get $b0))))
          (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (local.get $x) (local.get $b1))))
          (local.set $ap (i32.add (local.get $ap) (i32.const 16)))
          (local.set $bp (i32.add (local.get $bp) (i32.const 32)))
          (br_if $ks1 (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (local.set $cp (i32.add (i32.add (local.get $c) (i32.mul (i32.sub (local.get $M) (i32.const 1)) (local.get $ldc))) (i32.shl (local.get $p) (i32.const 2))))
        (if (i32.and (local.get $flags) (i32.const 2)) (then
          (local.set $c0 (f32x4.add (local.get $c0) (v128.load (local.get $cp))))
          (local.set $c1 (f32x4.add (local.get $c1) (v128.load offset=16 (local.get $cp))))))
        (if (i32.and (local.get $flags) (i32.const 1)) (then
          (local.set $x (v128.const i32x4 0 0 0 0))
          (local.set $c0 (f32x4.max (local.get $c0) (local.get $x)))
          (local.set $c1 (f32x4.max (local.get $c1) (local.get $x)))))
        (v128.store (local.get $cp) (local.get $c0))
        (v128.store offset=16 (local.get $cp) (local.get $c1))))
      (local.set $bpanel (i32.add (local.get $bpanel) (i32.shl (local.get $K) (i32.const 5))))
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (br $panels))))

  ;; Packed A from row-major src (row stride lda bytes): dst[i/4][k][i%4] = scale * src[i, k] for
  ;; i < rows, 0 for rows <= i < M (M a multiple of 4), k < K.
  (func (export "packA") (param $src i32) (param $lda i32) (param $rows i32) (param $M i32) (param $K i32)
        (param $scale f32) (param $dst i32)
    (local $i i32) (local $k i32) (local $s i32) (local $d i32)
    (local.set $i (i32.const 0))
    (block $idone (loop $rowl
      (br_if $idone (i32.ge_u (local.get $i) (local.get $M)))
      (local.set $d (i32.add (local.get $dst)
        (i32.add (i32.mul (i32.shr_u (local.get $i) (i32.const 2)) (i32.shl (local.get $K) (i32.const 4)))
                 (i32.shl (i32.and (local.get $i) (i32.const 3)) (i32.const 2)))))
      (local.set $s (i32.add (local.get $src) (i32.mul (local.get $i) (local.get $lda))))
      (local.set $k (i32.const 0))
      (if (i32.lt_u (local.get $i) (local.get $rows))
        (then
          (block $kdone (loop $kl
            (br_if $kdone (i32.ge_u (local.get $k) (local.get $K)))
            (f32.store (local.get $d) (f32.mul (local.get $scale) (f32.load (local.get $s))))
            (local.set $s (i32.add (local.get $s) (i32.const 4)))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $kl))))
        (else
          (block $zdone (loop $zl
            (br_if $zdone (i32.ge_u (local.get $k) (local.get $K)))
            (f32.store (local.get $d) (f32.const 0))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $zl)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rowl))))

  ;; Packed B from row-major src (row stride ld bytes) holding B itself (transposed = 0:
  ;; B[k, j] = src[k, j]) or its transpose (transposed = 1: B[k, j] = src[j, k]), for k < K, j < cols;
  ;; columns cols <= j < N (N a multiple of 8) are 0.
  (func (export "packB") (param $src i32) (param $ld i32) (param $K i32) (param $cols i32) (param $N i32)
        (param $transposed i32) (param $dst i32)
    (local $j i32) (local $k i32) (local $s i32) (local $d i32) (local $step i32)
    (local.set $j (i32.const 0))
    (block $jdone (loop $coll
      (br_if $jdone (i32.ge_u (local.get $j) (local.get $N)))
      (local.set $d (i32.add (local.get $dst)
        (i32.add (i32.mul (i32.shr_u (local.get $j) (i32.const 3)) (i32.shl (local.get $K) (i32.const 5)))
                 (i32.shl (i32.and (local.get $j) (i32.const 7)) (i32.const 2)))))
      (if (local.get $transposed)
        (then
          (local.set $s (i32.add (local.get $src) (i32.mul (local.get $j) (local.get $ld))))
          (local.set $step (i32.const 4)))
        (else
          (local.set $s (i32.add (local.get $src) (i32.shl (local.get $j) (i32.const 2))))
          (local.set $step (local.get $ld))))
      (local.set $k (i32.const 0))
      (if (i32.lt_u (local.get $j) (local.get $cols))
        (then
          (block $kdone (loop $kl
            (br_if $kdone (i32.ge_u (local.get $k) (local.get $K)))
            (f32.store (local.get $d) (f32.load (local.get $s)))
            (local.set $s (i32.add (local.get $s) (local.get $step)))
            (local.set $d (i32.add (local.get $d) (i32.const 32)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $kl))))
        (else
          (block $zdone (loop $zl
            (br_if $zdone (i32.ge_u (local.get $k) (local.get $K)))
            (f32.store (local.get $d) (f32.const 0))
            (local.set $d (i32.add (local.get $d) (i32.const 32)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $zl)))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $coll))))
)

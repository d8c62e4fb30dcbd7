;; lexcase posting decoder (retrieval/sparse/kernel/kernel.ts createDecoder; built into decode-wasm.ts
;; by `npm run build:kernel`): one posting list's on-disk bytes (docs/index-format.md, "Postings":
;; varint(2·gap + 1) for tf 1, else varint(2·gap) varint(tf); the first gap counts from −1) decoded
;; into the compact form of decoded-postings.ts for the doc range [lo, hi) — exactly what that file's
;; JavaScript decoder (decodeJs) writes, posting for posting. It runs over the view's kernel memory
;; (the memory the walks read), so a cached list is copied from here to its allocation in place.
;;
;; decode(src, df, lo, hi, c0, chunks, lowOff, tfOff, chunkOff, bigOff, out) reads up to df postings
;; from the bytes at src and writes, for each posting with lo ≤ doc < hi (at most df):
;;   u16 at lowOff + 2n  doc & 0xffff
;;   u8  at tfOff + n    tf, or 255 when tf ≥ 255, with the pair {i32 n; f64 tf} at bigOff + 16·k
;;   i32 at chunkOff + 4c  chunkEnd[c]: postings before the first doc past chunk c0 + c (65,536 docs)
;; and at out: i32 n, i32 largest tf byte stored, i32 postings parsed (as the JavaScript loop counts
;; them: those before the first doc ≥ hi), i32 bytes parsed, i32 k (escaped tfs). Returns n.
;;
;; Doc ids and gaps are i64 (a gap's varint has up to 5 bytes, values up to 2^35, the fifth byte's
;; top bit ignored as the JavaScript does); lo and hi come as f64 (integers < 2^53). A tf of more
;; than one byte is summed in f64 as the JavaScript does (group · 128^j). The postings before lo
;; are skipped by a loop that only parses (no stores), 16 at a time over runs of one-byte tf-1
;; postings (SIMD); the first posting at or past lo is parsed again by the storing loop.
(module
  (import "env" "mem" (memory 1))
  (func (export "decode") (param $src i32) (param $df i32) (param $lo f64) (param $hi f64)
        (param $c0 i32) (param $chunks i32) (param $lowOff i32) (param $tfOff i32)
        (param $chunkOff i32) (param $bigOff i32) (param $out i32) (result i32)
    (local $pos i32) (local $start i32) (local $i i32) (local $n i32) (local $c i32) (local $k i32)
    (local $b i32) (local $v i64) (local $doc i64) (local $next i64) (local $lo64 i64) (local $hi64 i64)
    (local $tf i32) (local $tfF f64) (local $shift f64) (local $vec v128) (local $maxTf i32) (local $nBig i32) (local $big i32)
    (local.set $lo64 (i64.trunc_f64_s (local.get $lo)))
    (local.set $hi64 (i64.trunc_f64_s (local.get $hi)))
    (local.set $doc (i64.const -1))
    (local.set $pos (local.get $src))
    ;; The prefix below lo: gaps summed, tf varints stepped over.
    (block $skipDone
      (loop $skip
        (br_if $skipDone (i32.ge_u (local.get $i) (local.get $df)))
        ;; 16 postings at once where the next 16 bytes are 16 one-byte odd varints (tf 1, gap < 64,
        ;; as most of a frequent term's postings are) that all stay below lo: doc += Σ byte >> 1.
        (block $scalar
          (br_if $scalar (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $df)))
          (local.set $vec (v128.load (local.get $pos)))
          (br_if $scalar (i32.eqz (i8x16.all_true
            (i8x16.eq (v128.and (local.get $vec) (i8x16.splat (i32.const 0x81))) (i8x16.splat (i32.const 1))))))
          (local.set $vec (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
            (i8x16.shr_u (local.get $vec) (i32.const 1)))))
          (local.set $next (i64.add (local.get $doc) (i64.extend_i32_u (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $vec)) (i32x4.extract_lane 1 (local.get $vec)))
            (i32.add (i32x4.extract_lane 2 (local.get $vec)) (i32x4.extract_lane 3 (local.get $vec)))))))
          (br_if $scalar (i64.ge_s (local.get $next) (local.get $lo64)))
          (local.set $doc (local.get $next))
          (local.set $i (i32.add (local.get $i) (i32.const 16)))
          (local.set $pos (i32.add (local.get $pos) (i32.const 16)))
          (br $skip))
        (local.set $start (local.get $pos))
        (local.set $b (i32.load8_u (local.get $pos)))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (local.set $v (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))))
        (if (i32.ge_u (local.get $b) (i32.const 128))
          (then
            (local.set $b (i32.load8_u (local.get $pos)))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 7))))
            (if (i32.ge_u (local.get $b) (i32.const 128))
              (then
                (local.set $b (i32.load8_u (local.get $pos)))
                (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 14))))
                (if (i32.ge_u (local.get $b) (i32.const 128))
                  (then
                    (local.set $b (i32.load8_u (local.get $pos)))
                    (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                    (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 21))))
                    (if (i32.ge_u (local.get $b) (i32.const 128))
                      (then
                        (local.set $b (i32.load8_u (local.get $pos)))
                        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                        (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 28))))))))))))
        (local.set $next (i64.add (local.get $doc) (i64.shr_u (local.get $v) (i64.const 1))))
        ;; an even value: a tf varint follows
        (if (i64.eqz (i64.and (local.get $v) (i64.const 1)))
          (then
            (loop $tfBytes
              (local.set $b (i32.load8_u (local.get $pos)))
              (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
              (br_if $tfBytes (i32.ge_u (local.get $b) (i32.const 128))))))
        (if (i64.ge_s (local.get $next) (local.get $lo64))
          (then
            (local.set $pos (local.get $start))
            (br $skipDone)))
        (local.set $doc (local.get $next))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $skip)))
    ;; The range: every posting stored until the first doc ≥ hi.
    (block $done
      (loop $main
        (br_if $done (i32.ge_u (local.get $i) (local.get $df)))
        (local.set $b (i32.load8_u (local.get $pos)))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (local.set $v (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))))
        (if (i32.ge_u (local.get $b) (i32.const 128))
          (then
            (local.set $b (i32.load8_u (local.get $pos)))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 7))))
            (if (i32.ge_u (local.get $b) (i32.const 128))
              (then
                (local.set $b (i32.load8_u (local.get $pos)))
                (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 14))))
                (if (i32.ge_u (local.get $b) (i32.const 128))
                  (then
                    (local.set $b (i32.load8_u (local.get $pos)))
                    (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                    (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 21))))
                    (if (i32.ge_u (local.get $b) (i32.const 128))
                      (then
                        (local.set $b (i32.load8_u (local.get $pos)))
                        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                        (local.set $v (i64.or (local.get $v) (i64.shl (i64.extend_i32_u (i32.and (local.get $b) (i32.const 127))) (i64.const 28))))))))))))
        (local.set $doc (i64.add (local.get $doc) (i64.shr_u (local.get $v) (i64.const 1))))
        (local.set $tf (i32.const 1))
        (local.set $big (i32.const 0))
        (if (i64.eqz (i64.and (local.get $v) (i64.const 1)))
          (then
            (local.set $b (i32.load8_u (local.get $pos)))
            (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
            (local.set $tf (i32.and (local.get $b) (i32.const 127)))
            (if (i32.ge_u (local.get $b) (i32.const 128))
              (then
                ;; tf of two bytes or more: the JavaScript's f64 sum
                (local.set $tfF (f64.convert_i32_u (local.get $tf)))
                (local.set $shift (f64.const 128))
                (loop $tfBytes
                  (local.set $b (i32.load8_u (local.get $pos)))
                  (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
                  (local.set $tfF (f64.add (local.get $tfF)
                    (f64.mul (f64.convert_i32_u (i32.and (local.get $b) (i32.const 127))) (local.get $shift))))
                  (local.set $shift (f64.mul (local.get $shift) (f64.const 128)))
                  (br_if $tfBytes (i32.ge_u (local.get $b) (i32.const 128))))
                (if (f64.ge (local.get $tfF) (f64.const 255))
                  (then
                    (local.set $tf (i32.const 255))
                    (local.set $big (i32.const 1)))
                  (else (local.set $tf (i32.trunc_f64_u (local.get $tfF)))))))))
        (br_if $done (i64.ge_s (local.get $doc) (local.get $hi64)))
        ;; chunk ends up to this posting's chunk
        (local.set $k (i32.sub (i32.wrap_i64 (i64.shr_u (local.get $doc) (i64.const 16))) (local.get $c0)))
        (block $chunksDone
          (loop $chunk
            (br_if $chunksDone (i32.ge_s (local.get $c) (local.get $k)))
            (i32.store (i32.add (local.get $chunkOff) (i32.shl (local.get $c) (i32.const 2))) (local.get $n))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))
            (br $chunk)))
        (i32.store16 (i32.add (local.get $lowOff) (i32.shl (local.get $n) (i32.const 1))) (i32.wrap_i64 (local.get $doc)))
        (if (local.get $big)
          (then
            (i32.store (i32.add (local.get $bigOff) (i32.shl (local.get $nBig) (i32.const 4))) (local.get $n))
            (f64.store offset=8 (i32.add (local.get $bigOff) (i32.shl (local.get $nBig) (i32.const 4))) (local.get $tfF))
            (local.set $nBig (i32.add (local.get $nBig) (i32.const 1)))))
        (if (i32.gt_u (local.get $tf) (local.get $maxTf)) (then (local.set $maxTf (local.get $tf))))
        (i32.store8 (i32.add (local.get $tfOff) (local.get $n)) (local.get $tf))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $main)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_s (local.get $c) (local.get $chunks)))
        (i32.store (i32.add (local.get $chunkOff) (i32.shl (local.get $c) (i32.const 2))) (local.get $n))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $tail)))
    (i32.store (local.get $out) (local.get $n))
    (i32.store offset=4 (local.get $out) (local.get $maxTf))
    (i32.store offset=8 (local.get $out) (local.get $i))
    (i32.store offset=12 (local.get $out) (i32.sub (local.get $pos) (local.get $src)))
    (i32.store offset=16 (local.get $out) (local.get $nBig))
    (local.get $n)))

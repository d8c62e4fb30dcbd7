;; lexcase sparse posting walks (retrieval/sparse/kernel/kernel.ts; built into walk-wasm.ts by
;; `npm run build:kernel`). One call adds one list's postings inside one block piece to the block's
;; score array and returns where it stopped. The arithmetic is the JavaScript walk's, in the same
;; IEEE-754 double operations and order, so scores are bit-identical to it.
;;
;; Postings: low 16 bits of each doc id (u16 at lowOff + 2p) and tf (u8 at tfOff + p) of a compact
;; list (decoded-postings.ts). A posting with low >= lim ends the piece. Its block-local doc index is
;; i = low + dOff (block arrays: f64 at scoresOff + 8i, norm at normOff + 8i).
(module
  (import "env" "mem" (memory 1))
  ;; BM25: scores[i] += (p1 * tf) / (tf + norm[i]). Two postings per step with f64x2 (each lane the
  ;; scalar IEEE-754 operations; a list's two postings are two different docs, each gets its one
  ;; addition): one division instruction per pair, the divider being what bounds this loop. Then a
  ;; scalar step for a last posting.
  ;; Every score it stores also goes into $mx (the largest score stored since resetMax; blocked-taat.ts
  ;; skips a block's selection when even that is below the threshold). pmax keeps a NaN score out.
  (global $mx (mut f64) (f64.const 0))
  (func (export "resetMax") (global.set $mx (f64.const 0)))
  (func (export "storedMax") (result f64) (global.get $mx))
  ;; A block's n scores cleared (memory.fill): a block whose selection was skipped.
  (func (export "clearScores") (param $scoresOff i32) (param $n i32)
    (memory.fill (local.get $scoresOff) (i32.const 0) (i32.shl (local.get $n) (i32.const 3))))
  (func $bm25 (export "bm25") (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
        (param $lim i32) (param $dOff i32) (param $normOff i32) (param $scoresOff i32) (param $p1 f64)
        (result i32)
    (local $l i32) (local $i8 i32) (local $tf f64) (local $a i32)
    (local $lp i32) (local $j8 i32) (local $t v128) (local $w v128) (local $pv v128)
    (local $s v128) (local $m v128) (local $v f64)
    (local.set $pv (f64x2.splat (local.get $p1)))
    (local.set $m (f64x2.splat (global.get $mx)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end)))
        (local.set $lp (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1))))
        ;; low bits rise within a chunk: the second posting below lim means both are.
        (local.set $l (i32.load16_u offset=2 (local.get $lp)))
        (br_if $pairsDone (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $j8 (i32.shl (i32.add (local.get $l) (local.get $dOff)) (i32.const 3)))
        (local.set $i8 (i32.shl (i32.add (i32.load16_u (local.get $lp)) (local.get $dOff)) (i32.const 3)))
        (local.set $t (f64x2.convert_low_i32x4_u (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u
          (v128.load16_splat (i32.add (local.get $tfOff) (local.get $p)))))))
        (local.set $w (f64x2.div (f64x2.mul (local.get $pv) (local.get $t))
          (f64x2.add (local.get $t)
            (v128.load64_lane 1 (i32.add (local.get $normOff) (local.get $j8))
              (v128.load64_zero (i32.add (local.get $normOff) (local.get $i8)))))))
        ;; The two docs differ (one posting per doc in a list): lane by lane the scalar f64.add.
        (local.set $a (i32.add (local.get $scoresOff) (local.get $i8)))
        (local.set $lp (i32.add (local.get $scoresOff) (local.get $j8)))
        (local.set $s (f64x2.add (v128.load64_lane 1 (local.get $lp) (v128.load64_zero (local.get $a))) (local.get $w)))
        (v128.store64_lane 0 (local.get $a) (local.get $s))
        (v128.store64_lane 1 (local.get $lp) (local.get $s))
        (local.set $m (f64x2.pmax (local.get $m) (local.get $s)))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairs)))
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $l (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))))
        (br_if $out (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $i8 (i32.shl (i32.add (local.get $l) (local.get $dOff)) (i32.const 3)))
        (local.set $tf (f64.convert_i32_u (i32.load8_u (i32.add (local.get $tfOff) (local.get $p)))))
        (local.set $a (i32.add (local.get $scoresOff) (local.get $i8)))
        (local.set $v
          (f64.add (f64.load (local.get $a))
            (f64.div (f64.mul (local.get $p1) (local.get $tf))
                     (f64.add (local.get $tf) (f64.load (i32.add (local.get $normOff) (local.get $i8)))))))
        (f64.store (local.get $a) (local.get $v))
        (local.set $m (f64x2.pmax (local.get $m) (f64x2.splat (local.get $v))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $top)))
    (global.set $mx (f64.max (f64x2.extract_lane 0 (local.get $m)) (f64x2.extract_lane 1 (local.get $m))))
    (local.get $p))
  ;; BM25 with the norms by length: as "bm25", the norm of block doc i read as the f64 at
  ;; tabOff + 8 * len[i] (len: u16 at lenOff + 2i, the doc's length; the table holds bm25Norm of each
  ;; length, the very values the per-doc norm array holds, so the weights are the same bits). A
  ;; block's lengths are 2 bytes a doc where its norms are 8: the walk's random reads of them miss
  ;; the cache four times less often (docs/notes/2026-12-02-norms-by-length.md).
  (func $bm25Len (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
        (param $lim i32) (param $dOff i32) (param $lenOff i32) (param $tabOff i32) (param $scoresOff i32) (param $p1 f64)
        (result i32)
    (local $l i32) (local $i i32) (local $j i32) (local $tf f64) (local $a i32)
    (local $lp i32) (local $t v128) (local $w v128) (local $pv v128)
    (local $s v128) (local $m v128) (local $v f64)
    (local.set $pv (f64x2.splat (local.get $p1)))
    (local.set $m (f64x2.splat (global.get $mx)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end)))
        (local.set $lp (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1))))
        (local.set $l (i32.load16_u offset=2 (local.get $lp)))
        (br_if $pairsDone (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $j (i32.add (local.get $l) (local.get $dOff)))
        (local.set $i (i32.add (i32.load16_u (local.get $lp)) (local.get $dOff)))
        (local.set $t (f64x2.convert_low_i32x4_u (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u
          (v128.load16_splat (i32.add (local.get $tfOff) (local.get $p)))))))
        (local.set $w (f64x2.div (f64x2.mul (local.get $pv) (local.get $t))
          (f64x2.add (local.get $t)
            (v128.load64_lane 1
              (i32.add (local.get $tabOff) (i32.shl (i32.load16_u (i32.add (local.get $lenOff) (i32.shl (local.get $j) (i32.const 1)))) (i32.const 3)))
              (v128.load64_zero
                (i32.add (local.get $tabOff) (i32.shl (i32.load16_u (i32.add (local.get $lenOff) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 3))))))))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $lp (i32.add (local.get $scoresOff) (i32.shl (local.get $j) (i32.const 3))))
        (local.set $s (f64x2.add (v128.load64_lane 1 (local.get $lp) (v128.load64_zero (local.get $a))) (local.get $w)))
        (v128.store64_lane 0 (local.get $a) (local.get $s))
        (v128.store64_lane 1 (local.get $lp) (local.get $s))
        (local.set $m (f64x2.pmax (local.get $m) (local.get $s)))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairs)))
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $l (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))))
        (br_if $out (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $i (i32.add (local.get $l) (local.get $dOff)))
        (local.set $tf (f64.convert_i32_u (i32.load8_u (i32.add (local.get $tfOff) (local.get $p)))))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $v
          (f64.add (f64.load (local.get $a))
            (f64.div (f64.mul (local.get $p1) (local.get $tf))
                     (f64.add (local.get $tf)
                       (f64.load (i32.add (local.get $tabOff)
                         (i32.shl (i32.load16_u (i32.add (local.get $lenOff) (i32.shl (local.get $i) (i32.const 1)))) (i32.const 3))))))))
        (f64.store (local.get $a) (local.get $v))
        (local.set $m (f64x2.pmax (local.get $m) (f64x2.splat (local.get $v))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $top)))
    (global.set $mx (f64.max (f64x2.extract_lane 0 (local.get $m)) (f64x2.extract_lane 1 (local.get $m))))
    (local.get $p))
  ;; bm25Lists with the norms by length (bm25Len): the same descriptors.
  (func (export "bm25LenLists") (param $descOff i32) (param $nLists i32) (param $lim i32) (param $dOff i32)
        (param $lenOff i32) (param $tabOff i32) (param $scoresOff i32)
    (local $d i32) (local $dEnd i32)
    (local.set $d (local.get $descOff))
    (local.set $dEnd (i32.add (local.get $descOff) (i32.mul (local.get $nLists) (i32.const 24))))
    (block $done
      (loop $lists
        (br_if $done (i32.ge_u (local.get $d) (local.get $dEnd)))
        (i32.store offset=8 (local.get $d)
          (call $bm25Len (i32.load (local.get $d)) (i32.load offset=4 (local.get $d)) (i32.load offset=8 (local.get $d))
                      (i32.load offset=12 (local.get $d)) (local.get $lim) (local.get $dOff) (local.get $lenOff)
                      (local.get $tabOff) (local.get $scoresOff) (f64.load offset=16 (local.get $d))))
        (local.set $d (i32.add (local.get $d) (i32.const 24)))
        (br $lists))))
  ;; bm25Len with the lengths as u8 (len: u8 at lenOff + i): the range's longest doc is at most 255
  ;; tokens, so a block's lengths are 1 byte a doc (docs/notes/2026-12-03-u8-lengths.md).
  (func $bm25Len8 (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
        (param $lim i32) (param $dOff i32) (param $lenOff i32) (param $tabOff i32) (param $scoresOff i32) (param $p1 f64)
        (result i32)
    (local $l i32) (local $i i32) (local $j i32) (local $tf f64) (local $a i32)
    (local $lp i32) (local $t v128) (local $w v128) (local $pv v128)
    (local $s v128) (local $m v128) (local $v f64)
    (local.set $pv (f64x2.splat (local.get $p1)))
    (local.set $m (f64x2.splat (global.get $mx)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end)))
        (local.set $lp (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1))))
        (local.set $l (i32.load16_u offset=2 (local.get $lp)))
        (br_if $pairsDone (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $j (i32.add (local.get $l) (local.get $dOff)))
        (local.set $i (i32.add (i32.load16_u (local.get $lp)) (local.get $dOff)))
        (local.set $t (f64x2.convert_low_i32x4_u (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u
          (v128.load16_splat (i32.add (local.get $tfOff) (local.get $p)))))))
        (local.set $w (f64x2.div (f64x2.mul (local.get $pv) (local.get $t))
          (f64x2.add (local.get $t)
            (v128.load64_lane 1
              (i32.add (local.get $tabOff) (i32.shl (i32.load8_u (i32.add (local.get $lenOff) (local.get $j))) (i32.const 3)))
              (v128.load64_zero
                (i32.add (local.get $tabOff) (i32.shl (i32.load8_u (i32.add (local.get $lenOff) (local.get $i))) (i32.const 3))))))))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $lp (i32.add (local.get $scoresOff) (i32.shl (local.get $j) (i32.const 3))))
        (local.set $s (f64x2.add (v128.load64_lane 1 (local.get $lp) (v128.load64_zero (local.get $a))) (local.get $w)))
        (v128.store64_lane 0 (local.get $a) (local.get $s))
        (v128.store64_lane 1 (local.get $lp) (local.get $s))
        (local.set $m (f64x2.pmax (local.get $m) (local.get $s)))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairs)))
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $l (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))))
        (br_if $out (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $i (i32.add (local.get $l) (local.get $dOff)))
        (local.set $tf (f64.convert_i32_u (i32.load8_u (i32.add (local.get $tfOff) (local.get $p)))))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $v
          (f64.add (f64.load (local.get $a))
            (f64.div (f64.mul (local.get $p1) (local.get $tf))
                     (f64.add (local.get $tf)
                       (f64.load (i32.add (local.get $tabOff)
                         (i32.shl (i32.load8_u (i32.add (local.get $lenOff) (local.get $i))) (i32.const 3))))))))
        (f64.store (local.get $a) (local.get $v))
        (local.set $m (f64x2.pmax (local.get $m) (f64x2.splat (local.get $v))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $top)))
    (global.set $mx (f64.max (f64x2.extract_lane 0 (local.get $m)) (f64x2.extract_lane 1 (local.get $m))))
    (local.get $p))
  ;; bm25LenLists over u8 lengths (bm25Len8): the same descriptors.
  (func (export "bm25Len8Lists") (param $descOff i32) (param $nLists i32) (param $lim i32) (param $dOff i32)
        (param $lenOff i32) (param $tabOff i32) (param $scoresOff i32)
    (local $d i32) (local $dEnd i32)
    (local.set $d (local.get $descOff))
    (local.set $dEnd (i32.add (local.get $descOff) (i32.mul (local.get $nLists) (i32.const 24))))
    (block $done
      (loop $lists
        (br_if $done (i32.ge_u (local.get $d) (local.get $dEnd)))
        (i32.store offset=8 (local.get $d)
          (call $bm25Len8 (i32.load (local.get $d)) (i32.load offset=4 (local.get $d)) (i32.load offset=8 (local.get $d))
                      (i32.load offset=12 (local.get $d)) (local.get $lim) (local.get $dOff) (local.get $lenOff)
                      (local.get $tabOff) (local.get $scoresOff) (f64.load offset=16 (local.get $d))))
        (local.set $d (i32.add (local.get $d) (i32.const 24)))
        (br $lists))))
  ;; Table scorers (textbook QLD): scores[i] += table[tf] (256 f64 at tableOff)
  (func $table (export "table") (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
        (param $lim i32) (param $dOff i32) (param $tableOff i32) (param $scoresOff i32)
        (result i32)
    (local $l i32) (local $a i32)
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $l (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))))
        (br_if $out (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (i32.add (local.get $l) (local.get $dOff)) (i32.const 3))))
        (f64.store (local.get $a)
          (f64.add (f64.load (local.get $a))
            (f64.load (i32.add (local.get $tableOff)
                               (i32.shl (i32.load8_u (i32.add (local.get $tfOff) (local.get $p))) (i32.const 3))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $top)))
    (local.get $p))
  ;; Runs of lists in one call (blocked-taat.ts: consecutive lists of the plan that the kernel walks),
  ;; in list order: nLists descriptors of 24 bytes at descOff, each {lowOff i32, tfOff i32, p i32,
  ;; end i32, then p1 f64 (BM25) or tableOff i32 (tables)}; each list is walked as by "bm25" /
  ;; "table" and its p is stored back.
  (func (export "bm25Lists") (param $descOff i32) (param $nLists i32) (param $lim i32) (param $dOff i32)
        (param $normOff i32) (param $scoresOff i32)
    (local $d i32) (local $dEnd i32)
    (local.set $d (local.get $descOff))
    (local.set $dEnd (i32.add (local.get $descOff) (i32.mul (local.get $nLists) (i32.const 24))))
    (block $done
      (loop $lists
        (br_if $done (i32.ge_u (local.get $d) (local.get $dEnd)))
        (i32.store offset=8 (local.get $d)
          (call $bm25 (i32.load (local.get $d)) (i32.load offset=4 (local.get $d)) (i32.load offset=8 (local.get $d))
                      (i32.load offset=12 (local.get $d)) (local.get $lim) (local.get $dOff) (local.get $normOff)
                      (local.get $scoresOff) (f64.load offset=16 (local.get $d))))
        (local.set $d (i32.add (local.get $d) (i32.const 24)))
        (br $lists))))
  (func (export "tableLists") (param $descOff i32) (param $nLists i32) (param $lim i32) (param $dOff i32)
        (param $scoresOff i32)
    (local $d i32) (local $dEnd i32)
    (local.set $d (local.get $descOff))
    (local.set $dEnd (i32.add (local.get $descOff) (i32.mul (local.get $nLists) (i32.const 24))))
    (block $done
      (loop $lists
        (br_if $done (i32.ge_u (local.get $d) (local.get $dEnd)))
        (i32.store offset=8 (local.get $d)
          (call $table (i32.load (local.get $d)) (i32.load offset=4 (local.get $d)) (i32.load offset=8 (local.get $d))
                       (i32.load offset=12 (local.get $d)) (local.get $lim) (local.get $dOff)
                       (i32.load offset=16 (local.get $d)) (local.get $scoresOff)))
        (local.set $d (i32.add (local.get $d) (i32.const 24)))
        (br $lists))))
  ;; Dense runs (blocked-taat.ts): nLists lists held as one tf byte per doc; the i32 at rowsOff + 4r
  ;; is the address of list r's byte for block-local doc 0, so its byte for doc i (i0 <= i < i1) is
  ;; at that address + i (in place in the view's resident memory, or a copy in the scratch; 8
  ;; readable bytes past a list's last doc). Per doc, the lists' weights are added to its score in
  ;; list order, as the JavaScript fused walk does.
  ;; BM25: s += (p1_r * tf) / (tf + norm[i]) with p1_r at p1Off + 8r; two docs per step (f64x2:
  ;; each lane is the same IEEE-754 operation as the scalar one).
  (func (export "denseBm25") (param $rowsOff i32) (param $nLists i32) (param $p1Off i32)
        (param $normOff i32) (param $scoresOff i32) (param $i0 i32) (param $i1 i32)
    (local $i i32) (local $s v128) (local $n v128) (local $tf v128) (local $a i32)
    (local $ss f64) (local $sn f64) (local $st f64) (local $rp i32) (local $rEnd i32) (local $pp i32)
    (local.set $rEnd (i32.add (local.get $rowsOff) (i32.shl (local.get $nLists) (i32.const 2))))
    (local.set $i (local.get $i0))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $i1)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $s (v128.load align=8 (local.get $a)))
        (local.set $n (v128.load align=8 (i32.add (local.get $normOff) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $rp (local.get $rowsOff))
        (local.set $pp (local.get $p1Off))
        (block $listsDone
          (loop $lists
            (br_if $listsDone (i32.ge_u (local.get $rp) (local.get $rEnd)))
            (local.set $tf (f64x2.convert_low_i32x4_u (i32x4.extend_low_i16x8_u
              (v128.load8x8_u align=1 (i32.add (i32.load (local.get $rp)) (local.get $i))))))
            (local.set $s (f64x2.add (local.get $s)
              (f64x2.div (f64x2.mul (f64x2.splat (f64.load (local.get $pp))) (local.get $tf))
                         (f64x2.add (local.get $tf) (local.get $n)))))
            (local.set $rp (i32.add (local.get $rp) (i32.const 4)))
            (local.set $pp (i32.add (local.get $pp) (i32.const 8)))
            (br $lists)))
        (v128.store align=8 (local.get $a) (local.get $s))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs)))
    ;; A last odd doc, scalar.
    (if (i32.lt_s (local.get $i) (local.get $i1))
      (then
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $ss (f64.load (local.get $a)))
        (local.set $sn (f64.load (i32.add (local.get $normOff) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $rp (local.get $rowsOff))
        (local.set $pp (local.get $p1Off))
        (block $done
          (loop $one
            (br_if $done (i32.ge_u (local.get $rp) (local.get $rEnd)))
            (local.set $st (f64.convert_i32_u (i32.load8_u (i32.add (i32.load (local.get $rp)) (local.get $i)))))
            (local.set $ss (f64.add (local.get $ss)
              (f64.div (f64.mul (f64.load (local.get $pp)) (local.get $st))
                       (f64.add (local.get $st) (local.get $sn)))))
            (local.set $rp (i32.add (local.get $rp) (i32.const 4)))
            (local.set $pp (i32.add (local.get $pp) (i32.const 8)))
            (br $one)))
        (f64.store (local.get $a) (local.get $ss)))))
  ;; Tables (textbook QLD): s += table_r[tf], 256 f64 per list at tablesOff + 2048r; rows as above.
  ;; Four docs per step, each with its own running sum (the additions of one doc form a chain of
  ;; dependent adds; four independent chains keep the adder busy), the four tf bytes of a row read
  ;; at once; then one doc at a time for the rest. Each doc gets its additions in list order.
  (func (export "denseTable") (param $rowsOff i32) (param $nLists i32) (param $tablesOff i32)
        (param $scoresOff i32) (param $i0 i32) (param $i1 i32)
    (local $i i32) (local $s f64) (local $a i32) (local $rp i32) (local $rEnd i32) (local $tab i32)
    (local $s1 f64) (local $s2 f64) (local $s3 f64) (local $t i32)
    (local.set $rEnd (i32.add (local.get $rowsOff) (i32.shl (local.get $nLists) (i32.const 2))))
    (local.set $i (local.get $i0))
    (block $quadsDone
      (loop $quads
        (br_if $quadsDone (i32.gt_s (i32.add (local.get $i) (i32.const 4)) (local.get $i1)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $s (f64.load (local.get $a)))
        (local.set $s1 (f64.load offset=8 (local.get $a)))
        (local.set $s2 (f64.load offset=16 (local.get $a)))
        (local.set $s3 (f64.load offset=24 (local.get $a)))
        (local.set $rp (local.get $rowsOff))
        (local.set $tab (local.get $tablesOff))
        (block $listsDone
          (loop $lists
            (br_if $listsDone (i32.ge_u (local.get $rp) (local.get $rEnd)))
            (local.set $t (i32.load align=1 (i32.add (i32.load (local.get $rp)) (local.get $i))))
            (local.set $s (f64.add (local.get $s)
              (f64.load (i32.add (local.get $tab) (i32.shl (i32.and (local.get $t) (i32.const 255)) (i32.const 3))))))
            (local.set $s1 (f64.add (local.get $s1)
              (f64.load (i32.add (local.get $tab) (i32.and (i32.shr_u (local.get $t) (i32.const 5)) (i32.const 2040))))))
            (local.set $s2 (f64.add (local.get $s2)
              (f64.load (i32.add (local.get $tab) (i32.and (i32.shr_u (local.get $t) (i32.const 13)) (i32.const 2040))))))
            (local.set $s3 (f64.add (local.get $s3)
              (f64.load (i32.add (local.get $tab) (i32.shl (i32.shr_u (local.get $t) (i32.const 24)) (i32.const 3))))))
            (local.set $rp (i32.add (local.get $rp) (i32.const 4)))
            (local.set $tab (i32.add (local.get $tab) (i32.const 2048)))
            (br $lists)))
        (f64.store (local.get $a) (local.get $s))
        (f64.store offset=8 (local.get $a) (local.get $s1))
        (f64.store offset=16 (local.get $a) (local.get $s2))
        (f64.store offset=24 (local.get $a) (local.get $s3))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    (block $docsDone
      (loop $docs
        (br_if $docsDone (i32.ge_s (local.get $i) (local.get $i1)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $s (f64.load (local.get $a)))
        (local.set $rp (local.get $rowsOff))
        (local.set $tab (local.get $tablesOff))
        (block $listsDone
          (loop $lists
            (br_if $listsDone (i32.ge_u (local.get $rp) (local.get $rEnd)))
            (local.set $s (f64.add (local.get $s)
              (f64.load (i32.add (local.get $tab)
                (i32.shl (i32.load8_u (i32.add (i32.load (local.get $rp)) (local.get $i))) (i32.const 3))))))
            (local.set $rp (i32.add (local.get $rp) (i32.const 4)))
            (local.set $tab (i32.add (local.get $tab) (i32.const 2048)))
            (br $lists)))
        (f64.store (local.get $a) (local.get $s))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $docs))))

  ;; A pruned block's dense lists added to its candidates only (blocked-taat.ts addToCandidates,
  ;; BM25): the nc block indexes at candOff (i32), each doc's score s += (p1_r * tf) / (tf + norm[i])
  ;; for the rows as denseBm25's (list r's tf byte of doc i at the i32 at rowsOff + 4r, plus i; p1_r
  ;; at p1Off + 8r), in list order: the same additions as the fused walk (+0 for tf 0), so the same
  ;; bits. Two candidates per step (f64x2, each lane the scalar operations), then a last one.
  (func (export "denseBm25Cands") (param $rowsOff i32) (param $nLists i32) (param $p1Off i32)
        (param $normOff i32) (param $scoresOff i32) (param $candOff i32) (param $nc i32)
    (local $c i32) (local $i i32) (local $j i32) (local $ai i32) (local $aj i32) (local $row i32)
    (local $s v128) (local $n v128) (local $tf v128) (local $rp i32) (local $rEnd i32) (local $pp i32)
    (local $ss f64) (local $sn f64) (local $st f64)
    (local.set $rEnd (i32.add (local.get $rowsOff) (i32.shl (local.get $nLists) (i32.const 2))))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_s (i32.add (local.get $c) (i32.const 2)) (local.get $nc)))
        (local.set $i (i32.load (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $j (i32.load offset=4 (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $ai (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $aj (i32.add (local.get $scoresOff) (i32.shl (local.get $j) (i32.const 3))))
        (local.set $s (v128.load64_lane 1 (local.get $aj) (v128.load64_zero (local.get $ai))))
        (local.set $n (v128.load64_lane 1 (i32.add (local.get $normOff) (i32.shl (local.get $j) (i32.const 3)))
          (v128.load64_zero (i32.add (local.get $normOff) (i32.shl (local.get $i) (i32.const 3))))))
        (local.set $rp (local.get $rowsOff))
        (local.set $pp (local.get $p1Off))
        (block $listsDone
          (loop $lists
            (br_if $listsDone (i32.ge_u (local.get $rp) (local.get $rEnd)))
            (local.set $row (i32.load (local.get $rp)))
            (local.set $tf (f64x2.replace_lane 1
              (f64x2.splat (f64.convert_i32_u (i32.load8_u (i32.add (local.get $row) (local.get $i)))))
              (f64.convert_i32_u (i32.load8_u (i32.add (local.get $row) (local.get $j))))))
            (local.set $s (f64x2.add (local.get $s)
              (f64x2.div (f64x2.mul (f64x2.splat (f64.load (local.get $pp))) (local.get $tf))
                         (f64x2.add (local.get $tf) (local.get $n)))))
            (local.set $rp (i32.add (local.get $rp) (i32.const 4)))
            (local.set $pp (i32.add (local.get $pp) (i32.const 8)))
            (br $lists)))
        (f64.store (local.get $ai) (f64x2.extract_lane 0 (local.get $s)))
        (f64.store (local.get $aj) (f64x2.extract_lane 1 (local.get $s)))
        (local.set $c (i32.add (local.get $c) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_s (local.get $c) (local.get $nc))
      (then
        (local.set $i (i32.load (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $ai (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $ss (f64.load (local.get $ai)))
        (local.set $sn (f64.load (i32.add (local.get $normOff) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $rp (local.get $rowsOff))
        (local.set $pp (local.get $p1Off))
        (block $done
          (loop $one
            (br_if $done (i32.ge_u (local.get $rp) (local.get $rEnd)))
            (local.set $st (f64.convert_i32_u (i32.load8_u (i32.add (i32.load (local.get $rp)) (local.get $i)))))
            (local.set $ss (f64.add (local.get $ss)
              (f64.div (f64.mul (f64.load (local.get $pp)) (local.get $st))
                       (f64.add (local.get $st) (local.get $sn)))))
            (local.set $rp (i32.add (local.get $rp) (i32.const 4)))
            (local.set $pp (i32.add (local.get $pp) (i32.const 8)))
            (br $one)))
        (f64.store (local.get $ai) (local.get $ss)))))

  ;; Top-k candidates of a block (blocked-taat.ts then pushes them in order, re-checking its running
  ;; threshold): every doc i < n whose score s >= thr is written to out (f64 s at outOff + 16c, i32 i
  ;; at outOff + 16c + 8) and every score is cleared for the next block. Returns the count c.
  ;; Two docs per step (f64x2, the scalar operations per lane), a branch only where a lane qualifies
  ;; (rare once the top-k is full); a last odd doc as one more step whose second lane is ignored
  ;; and left untouched.
  ;; Textbook QLD: s = base - qlen * lnl[i] + scores[i] (every doc).
  (func (export "selectQld") (param $scoresOff i32) (param $lnlOff i32) (param $base f64) (param $qlen f64)
        (param $thr f64) (param $n i32) (param $outOff i32) (result i32)
    (local $i i32) (local $c i32) (local $a i32) (local $s v128) (local $o i32) (local $ok v128)
    (local $vb v128) (local $vq v128) (local $vt v128) (local $f f64)
    (local.set $vb (f64x2.splat (local.get $base)))
    (local.set $vq (f64x2.splat (local.get $qlen)))
    (local.set $vt (f64x2.splat (local.get $thr)))
    (block $done
      (loop $docs
        (br_if $done (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $s (f64x2.add (f64x2.sub (local.get $vb)
                                            (f64x2.mul (local.get $vq) (v128.load align=8 (i32.add (local.get $lnlOff) (i32.shl (local.get $i) (i32.const 3))))))
                                 (v128.load align=8 (local.get $a))))
        (v128.store align=8 (local.get $a) (v128.const i64x2 0 0))
        (local.set $ok (f64x2.ge (local.get $s) (local.get $vt)))
        (if (v128.any_true (local.get $ok))
          (then
            (if (i32x4.extract_lane 0 (local.get $ok))
              (then
                (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $c) (i32.const 4))))
                (f64.store (local.get $o) (f64x2.extract_lane 0 (local.get $s)))
                (i32.store offset=8 (local.get $o) (local.get $i))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))
            (if (i32x4.extract_lane 2 (local.get $ok))
              (then
                (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $c) (i32.const 4))))
                (f64.store (local.get $o) (f64x2.extract_lane 1 (local.get $s)))
                (i32.store offset=8 (local.get $o) (i32.add (local.get $i) (i32.const 1)))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $docs)))
    ;; A last odd doc, scalar.
    (if (i32.lt_s (local.get $i) (local.get $n))
      (then
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $f (f64.add (f64.sub (local.get $base)
                                        (f64.mul (local.get $qlen) (f64.load (i32.add (local.get $lnlOff) (i32.shl (local.get $i) (i32.const 3))))))
                               (f64.load (local.get $a))))
        (f64.store (local.get $a) (f64.const 0))
        (if (f64.ge (local.get $f) (local.get $thr))
          (then
            (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $c) (i32.const 4))))
            (f64.store (local.get $o) (local.get $f))
            (i32.store offset=8 (local.get $o) (local.get $i))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))))))
    (local.get $c))
  ;; BM25: s = scores[i], docs with s = 0 (untouched) skipped.
  (func (export "selectTouched") (param $scoresOff i32) (param $thr f64) (param $n i32) (param $outOff i32) (result i32)
    (local $i i32) (local $c i32) (local $a i32) (local $s v128) (local $o i32) (local $ok v128) (local $vt v128) (local $f f64)
    (local.set $vt (f64x2.splat (local.get $thr)))
    (block $done
      (loop $docs
        (br_if $done (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $s (v128.load align=8 (local.get $a)))
        (v128.store align=8 (local.get $a) (v128.const i64x2 0 0))
        (local.set $ok (v128.and (f64x2.ge (local.get $s) (local.get $vt)) (f64x2.ne (local.get $s) (f64x2.splat (f64.const 0)))))
        (if (v128.any_true (local.get $ok))
          (then
            (if (i32x4.extract_lane 0 (local.get $ok))
              (then
                (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $c) (i32.const 4))))
                (f64.store (local.get $o) (f64x2.extract_lane 0 (local.get $s)))
                (i32.store offset=8 (local.get $o) (local.get $i))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))
            (if (i32x4.extract_lane 2 (local.get $ok))
              (then
                (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $c) (i32.const 4))))
                (f64.store (local.get $o) (f64x2.extract_lane 1 (local.get $s)))
                (i32.store offset=8 (local.get $o) (i32.add (local.get $i) (i32.const 1)))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $docs)))
    ;; A last odd doc, scalar.
    (if (i32.lt_s (local.get $i) (local.get $n))
      (then
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $f (f64.load (local.get $a)))
        (if (f64.ne (local.get $f) (f64.const 0))
          (then
            (f64.store (local.get $a) (f64.const 0))
            (if (f64.ge (local.get $f) (local.get $thr))
              (then
                (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $c) (i32.const 4))))
                (f64.store (local.get $o) (local.get $f))
                (i32.store offset=8 (local.get $o) (local.get $i))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))))))
    (local.get $c))
;; Blocked TAAT's pruned block (BM25, blocked-taat.ts pruneBlock): the docs [0, n) whose score +
  ;; rest reaches thr written (i32 block index, ascending) at candOff, every other doc's score
  ;; cleared, two docs per step; stops once more than maxC are written (the block then walks every
  ;; term: a cleared doc gets only the terms whose bound rest is below thr). Returns the count. Only
  ;; the candidates are left to select (emitCandidates), not the whole block (selectTouched).
  (func (export "pruneScan") (param $scoresOff i32) (param $n i32) (param $rest f64) (param $thr f64)
        (param $candOff i32) (param $maxC i32) (result i32)
    (local $i i32) (local $c i32) (local $a i32) (local $s v128) (local $ok v128) (local $vr v128) (local $vt v128) (local $f f64)
    (local.set $vr (f64x2.splat (local.get $rest)))
    (local.set $vt (f64x2.splat (local.get $thr)))
    (block $done
      (loop $docs
        (br_if $done (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (br_if $done (i32.gt_s (local.get $c) (local.get $maxC)))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $s (v128.load align=8 (local.get $a)))
        (local.set $ok (f64x2.ge (f64x2.add (local.get $s) (local.get $vr)) (local.get $vt)))
        (v128.store align=8 (local.get $a) (v128.and (local.get $s) (local.get $ok)))
        (if (v128.any_true (local.get $ok))
          (then
            (if (i32x4.extract_lane 0 (local.get $ok))
              (then
                (i32.store (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2))) (local.get $i))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))
            (if (i32x4.extract_lane 2 (local.get $ok))
              (then
                (i32.store (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2))) (i32.add (local.get $i) (i32.const 1)))
                (local.set $c (i32.add (local.get $c) (i32.const 1)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $docs)))
    ;; A last odd doc, scalar.
    (if (i32.and (i32.lt_s (local.get $i) (local.get $n)) (i32.le_s (local.get $c) (local.get $maxC)))
      (then
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $f (f64.load (local.get $a)))
        (if (f64.ge (f64.add (local.get $f) (local.get $rest)) (local.get $thr))
          (then
            (i32.store (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2))) (local.get $i))
            (local.set $c (i32.add (local.get $c) (i32.const 1))))
          (else (f64.store (local.get $a) (f64.const 0))))))
    (local.get $c))
;; ---- MaxScore without the per-document floor (blocked-taat.ts, blockedPruning.sparseCandidates; BM25) ----
  ;; The essential lists walked as by "bm25Lists" (the same additions in the same order), each
  ;; posting also setting bit i of the block's touched bitmap (i64 words at bitsOff), so the block's
  ;; candidates come from the bitmap, not from a scan over every doc.
  (func $bm25m (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
        (param $lim i32) (param $dOff i32) (param $normOff i32) (param $scoresOff i32) (param $p1 f64)
        (param $bitsOff i32) (result i32)
    (local $l i32) (local $i i32) (local $j i32) (local $i8 i32) (local $tf f64) (local $a i32)
    (local $lp i32) (local $j8 i32) (local $t v128) (local $w v128) (local $pv v128)
    (local.set $pv (f64x2.splat (local.get $p1)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_u (i32.add (local.get $p) (i32.const 2)) (local.get $end)))
        (local.set $lp (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1))))
        (local.set $l (i32.load16_u offset=2 (local.get $lp)))
        (br_if $pairsDone (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $j (i32.add (local.get $l) (local.get $dOff)))
        (local.set $i (i32.add (i32.load16_u (local.get $lp)) (local.get $dOff)))
        (local.set $j8 (i32.shl (local.get $j) (i32.const 3)))
        (local.set $i8 (i32.shl (local.get $i) (i32.const 3)))
        (local.set $t (f64x2.convert_low_i32x4_u (i32x4.extend_low_i16x8_u (i16x8.extend_low_i8x16_u
          (v128.load16_splat (i32.add (local.get $tfOff) (local.get $p)))))))
        (local.set $w (f64x2.div (f64x2.mul (local.get $pv) (local.get $t))
          (f64x2.add (local.get $t)
            (v128.load64_lane 1 (i32.add (local.get $normOff) (local.get $j8))
              (v128.load64_zero (i32.add (local.get $normOff) (local.get $i8)))))))
        (local.set $a (i32.add (local.get $scoresOff) (local.get $i8)))
        (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64x2.extract_lane 0 (local.get $w))))
        (local.set $a (i32.add (local.get $scoresOff) (local.get $j8)))
        (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64x2.extract_lane 1 (local.get $w))))
        (local.set $a (i32.add (local.get $bitsOff) (i32.shl (i32.shr_u (local.get $i) (i32.const 6)) (i32.const 3))))
        (i64.store (local.get $a) (i64.or (i64.load (local.get $a)) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $i)))))
        (local.set $a (i32.add (local.get $bitsOff) (i32.shl (i32.shr_u (local.get $j) (i32.const 6)) (i32.const 3))))
        (i64.store (local.get $a) (i64.or (i64.load (local.get $a)) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $j)))))
        (local.set $p (i32.add (local.get $p) (i32.const 2)))
        (br $pairs)))
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $l (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))))
        (br_if $out (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $i (i32.add (local.get $l) (local.get $dOff)))
        (local.set $i8 (i32.shl (local.get $i) (i32.const 3)))
        (local.set $tf (f64.convert_i32_u (i32.load8_u (i32.add (local.get $tfOff) (local.get $p)))))
        (local.set $a (i32.add (local.get $scoresOff) (local.get $i8)))
        (f64.store (local.get $a)
          (f64.add (f64.load (local.get $a))
            (f64.div (f64.mul (local.get $p1) (local.get $tf))
                     (f64.add (local.get $tf) (f64.load (i32.add (local.get $normOff) (local.get $i8)))))))
        (local.set $a (i32.add (local.get $bitsOff) (i32.shl (i32.shr_u (local.get $i) (i32.const 6)) (i32.const 3))))
        (i64.store (local.get $a) (i64.or (i64.load (local.get $a)) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $i)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $top)))
    (local.get $p))
  ;; Descriptors as bm25Lists's, each list walked by $bm25m (p stored back).
  (func (export "bm25MarkLists") (param $descOff i32) (param $nLists i32) (param $lim i32) (param $dOff i32)
        (param $normOff i32) (param $scoresOff i32) (param $bitsOff i32)
    (local $d i32) (local $dEnd i32)
    (local.set $d (local.get $descOff))
    (local.set $dEnd (i32.add (local.get $descOff) (i32.mul (local.get $nLists) (i32.const 24))))
    (block $done
      (loop $lists
        (br_if $done (i32.ge_u (local.get $d) (local.get $dEnd)))
        (i32.store offset=8 (local.get $d)
          (call $bm25m (i32.load (local.get $d)) (i32.load offset=4 (local.get $d)) (i32.load offset=8 (local.get $d))
                       (i32.load offset=12 (local.get $d)) (local.get $lim) (local.get $dOff) (local.get $normOff)
                       (local.get $scoresOff) (f64.load offset=16 (local.get $d)) (local.get $bitsOff)))
        (local.set $d (i32.add (local.get $d) (i32.const 24)))
        (br $lists))))
  ;; The touched docs of the bitmap's words [w0, nWords), in ascending order: those whose score + rest
  ;; reaches thr are written (i32 block index) at candOff, the others' scores cleared; the words are
  ;; cleared. Returns the candidates' count.
  (func (export "gatherTouched") (param $bitsOff i32) (param $w0 i32) (param $nWords i32) (param $scoresOff i32) (param $rest f64)
        (param $thr f64) (param $candOff i32) (result i32)
    (local $wi i32) (local $x i64) (local $i i32) (local $a i32) (local $c i32)
    (local.set $wi (local.get $w0))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $wi) (local.get $nWords)))
        (local.set $a (i32.add (local.get $bitsOff) (i32.shl (local.get $wi) (i32.const 3))))
        (local.set $x (i64.load (local.get $a)))
        (if (i64.ne (local.get $x) (i64.const 0))
          (then
            (i64.store (local.get $a) (i64.const 0))
            (block $bitsDone
              (loop $bits
                (br_if $bitsDone (i64.eqz (local.get $x)))
                (local.set $i (i32.add (i32.shl (local.get $wi) (i32.const 6)) (i32.wrap_i64 (i64.ctz (local.get $x)))))
                (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
                (if (f64.ge (f64.add (f64.load (local.get $a)) (local.get $rest)) (local.get $thr))
                  (then
                    (i32.store (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2))) (local.get $i))
                    (local.set $c (i32.add (local.get $c) (i32.const 1))))
                  (else (f64.store (local.get $a) (f64.const 0))))
                (local.set $x (i64.and (local.get $x) (i64.sub (local.get $x) (i64.const 1))))
                (br $bits)))))
        (local.set $wi (i32.add (local.get $wi) (i32.const 1)))
        (br $words)))
    (local.get $c))
  ;; One compact list (a descriptor as bm25Lists's) added to the nc candidates at candOff (ascending
  ;; block indexes of this piece: chunk-local low = i - dOff), each found by galloping from the list's
  ;; cursor: scores[i] += (p1 * tf) / (tf + norm[i]), the walk's expression. Then the cursor moves to
  ;; the piece's end (the first posting with low >= lim) and is stored back.
  (func (export "bm25Lookup") (param $desc i32) (param $lim i32) (param $dOff i32) (param $normOff i32)
        (param $scoresOff i32) (param $candOff i32) (param $nc i32)
    (local $lowOff i32) (local $p i32) (local $end i32) (local $c i32) (local $i i32) (local $x i32)
    (local $step i32) (local $hi i32) (local $m i32) (local $tf f64) (local $a i32) (local $p1 f64)
    (local.set $lowOff (i32.load (local.get $desc)))
    (local.set $p (i32.load offset=8 (local.get $desc)))
    (local.set $end (i32.load offset=12 (local.get $desc)))
    (local.set $p1 (f64.load offset=16 (local.get $desc)))
    ;; c = nc stands for the piece's end (x = lim).
    (block $done
      (loop $cands
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.lt_u (local.get $c) (local.get $nc))
          (then
            (local.set $i (i32.load (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2)))))
            (local.set $x (i32.sub (local.get $i) (local.get $dOff))))
          (else (local.set $x (local.get $lim))))
        ;; The first posting at or after p with low >= x: gallop, then halve.
        (if (i32.lt_u (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))) (local.get $x))
          (then
            (local.set $step (i32.const 1))
            (local.set $hi (i32.add (local.get $p) (i32.const 1)))
            (block $gDone
              (loop $gallop
                (br_if $gDone (i32.ge_u (local.get $hi) (local.get $end)))
                (br_if $gDone (i32.ge_u (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $hi) (i32.const 1)))) (local.get $x)))
                (local.set $p (local.get $hi))
                (local.set $step (i32.shl (local.get $step) (i32.const 1)))
                (local.set $hi (i32.add (local.get $p) (local.get $step)))
                (br $gallop)))
            (if (i32.gt_u (local.get $hi) (local.get $end)) (then (local.set $hi (local.get $end))))
            ;; low[p] < x, and hi = end or low[hi] >= x.
            (block $bDone
              (loop $bisect
                (br_if $bDone (i32.le_u (i32.sub (local.get $hi) (local.get $p)) (i32.const 1)))
                (local.set $m (i32.shr_u (i32.add (local.get $p) (local.get $hi)) (i32.const 1)))
                (if (i32.lt_u (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $m) (i32.const 1)))) (local.get $x))
                  (then (local.set $p (local.get $m)))
                  (else (local.set $hi (local.get $m))))
                (br $bisect)))
            (local.set $p (local.get $hi))))
        (br_if $done (i32.ge_u (local.get $c) (local.get $nc)))
        (if (i32.lt_u (local.get $p) (local.get $end))
          (then
            (if (i32.eq (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))) (local.get $x))
              (then
                (local.set $tf (f64.convert_i32_u (i32.load8_u (i32.add (i32.load offset=4 (local.get $desc)) (local.get $p)))))
                (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
                (f64.store (local.get $a)
                  (f64.add (f64.load (local.get $a))
                    (f64.div (f64.mul (local.get $p1) (local.get $tf))
                             (f64.add (local.get $tf) (f64.load (i32.add (local.get $normOff) (i32.shl (local.get $i) (i32.const 3))))))))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $cands)))
    (i32.store offset=8 (local.get $desc) (local.get $p)))
  ;; MaxScore's early exit per doc: keep the nc candidates at candOff whose score + rest reaches thr
  ;; (in order, compacted in place), clear the others' scores. Returns how many are kept.
  (func (export "keepCandidates") (param $candOff i32) (param $nc i32) (param $scoresOff i32) (param $rest f64)
        (param $thr f64) (result i32)
    (local $c i32) (local $k i32) (local $i i32) (local $a i32)
    (block $done
      (loop $cands
        (br_if $done (i32.ge_u (local.get $c) (local.get $nc)))
        (local.set $i (i32.load (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (if (f64.ge (f64.add (f64.load (local.get $a)) (local.get $rest)) (local.get $thr))
          (then
            (i32.store (i32.add (local.get $candOff) (i32.shl (local.get $k) (i32.const 2))) (local.get $i))
            (local.set $k (i32.add (local.get $k) (i32.const 1))))
          (else (f64.store (local.get $a) (f64.const 0))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $cands)))
    (local.get $k))
  ;; The candidates' final scores: those at or above thr written as selectTouched writes (f64 score,
  ;; i32 index at +8, 16 bytes each) from outOff + 16·at; every candidate's score cleared. Returns
  ;; at + how many were written.
  (func (export "emitCandidates") (param $candOff i32) (param $nc i32) (param $scoresOff i32) (param $thr f64)
        (param $outOff i32) (param $at i32) (result i32)
    (local $c i32) (local $i i32) (local $a i32) (local $f f64) (local $o i32)
    (block $done
      (loop $cands
        (br_if $done (i32.ge_u (local.get $c) (local.get $nc)))
        (local.set $i (i32.load (i32.add (local.get $candOff) (i32.shl (local.get $c) (i32.const 2)))))
        (local.set $a (i32.add (local.get $scoresOff) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $f (f64.load (local.get $a)))
        (f64.store (local.get $a) (f64.const 0))
        (if (f64.ge (local.get $f) (local.get $thr))
          (then
            (local.set $o (i32.add (local.get $outOff) (i32.shl (local.get $at) (i32.const 4))))
            (f64.store (local.get $o) (local.get $f))
            (i32.store offset=8 (local.get $o) (local.get $i))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $cands)))
    (local.get $at))
)

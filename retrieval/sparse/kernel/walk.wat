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
  ;; BM25: scores[i] += (p1 * tf) / (tf + norm[i])
  (func (export "bm25") (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
        (param $lim i32) (param $dOff i32) (param $normOff i32) (param $scoresOff i32) (param $p1 f64)
        (result i32)
    (local $l i32) (local $i8 i32) (local $tf f64) (local $a i32)
    (block $out
      (loop $top
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $l (i32.load16_u (i32.add (local.get $lowOff) (i32.shl (local.get $p) (i32.const 1)))))
        (br_if $out (i32.ge_u (local.get $l) (local.get $lim)))
        (local.set $i8 (i32.shl (i32.add (local.get $l) (local.get $dOff)) (i32.const 3)))
        (local.set $tf (f64.convert_i32_u (i32.load8_u (i32.add (local.get $tfOff) (local.get $p)))))
        (local.set $a (i32.add (local.get $scoresOff) (local.get $i8)))
        (f64.store (local.get $a)
          (f64.add (f64.load (local.get $a))
            (f64.div (f64.mul (local.get $p1) (local.get $tf))
                     (f64.add (local.get $tf) (f64.load (i32.add (local.get $normOff) (local.get $i8)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $top)))
    (local.get $p))
  ;; Table scorers (textbook QLD): scores[i] += table[tf] (256 f64 at tableOff)
  (func (export "table") (param $lowOff i32) (param $tfOff i32) (param $p i32) (param $end i32)
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
    (local.get $p)))

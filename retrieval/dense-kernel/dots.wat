;; lexcase exact dense scores (retrieval/dense-kernel/dots.ts; built into dots-wasm.ts by
;; `npm run build:kernel`): one dot product per row of a float32 matrix with a float64 query, in
;; float64 — each float32 × float64 product of float32 values is exact, as in the JavaScript loop
;; it replaces, so scores agree with it to the last bits of the float64 sums.
;;
;; mat: n rows of `stride` float32 (stride a multiple of 4; padding zero) at $mat;
;; q: `stride` float64 at $q; out: n float64 at $out.
(module
  (import "env" "mem" (memory 1))
  (func (export "dots") (param $mat i32) (param $q i32) (param $n i32) (param $stride i32) (param $out i32)
    (local $i i32) (local $p i32) (local $qp i32) (local $end i32) (local $v v128)
    (local $s0 v128) (local $s1 v128) (local $rowb i32)
    (local.set $rowb (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $p (local.get $mat))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $s0 (v128.const f64x2 0 0))
      (local.set $s1 (v128.const f64x2 0 0))
      (local.set $qp (local.get $q))
      (local.set $end (i32.add (local.get $p) (local.get $rowb)))
      (block $row (loop $ds
        (br_if $row (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $s0 (f64x2.add (local.get $s0)
          (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (v128.load (local.get $qp)))))
        (local.set $s1 (f64x2.add (local.get $s1)
          (f64x2.mul (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
                     (v128.load offset=16 (local.get $qp)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
        (br $ds)))
      (local.set $s0 (f64x2.add (local.get $s0) (local.get $s1)))
      (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3)))
        (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64x2.extract_lane 1 (local.get $s0))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))
)

;; Dot products of one query with many vectors, four lanes at a time (WebAssembly SIMD), for
;; memory/vectors.ts. Vectors are f32 rows of `dim` lanes (a multiple of 4), one after another from
;; `vec`; the query is `dim` f32 lanes at `q`. Four rows go together: four independent sums share
;; each load of the query, so the additions do not wait on one another (one row at a time waited on
;; its single sum: 2.5× slower). Each row's sum is added in the same order either way. (An int8
;; variant with i32x4.dot_i16x8_s measured slower.)
(module
  (import "env" "memory" (memory 1))

  ;; The four lanes of a sum, added as (0 + 1) + (2 + 3).
  (func $lanes (param $acc v128) (result f32)
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
      (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))

  ;; The row at byte offset `a` · q.
  (func $one (param $a i32) (param $q i32) (param $dim i32) (result f32)
    (local $j i32) (local $acc v128)
    (block $done
      (loop $cols
        (br_if $done (i32.ge_u (local.get $j) (local.get $dim)))
        (local.set $acc
          (f32x4.add (local.get $acc)
            (f32x4.mul
              (v128.load (i32.add (local.get $a) (i32.shl (local.get $j) (i32.const 2))))
              (v128.load (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 2)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $cols)))
    (call $lanes (local.get $acc)))

  ;; The rows at byte offsets a, b, c, d · q, stored as four f32 from `out`.
  (func $four (param $a i32) (param $b i32) (param $c i32) (param $d i32) (param $q i32) (param $dim i32) (param $out i32)
    (local $j i32) (local $at i32) (local $x v128) (local $sa v128) (local $sb v128) (local $sc v128) (local $sd v128)
    (block $done
      (loop $cols
        (br_if $done (i32.ge_u (local.get $j) (local.get $dim)))
        (local.set $at (i32.shl (local.get $j) (i32.const 2)))
        (local.set $x (v128.load (i32.add (local.get $q) (local.get $at))))
        (local.set $sa (f32x4.add (local.get $sa) (f32x4.mul (v128.load (i32.add (local.get $a) (local.get $at))) (local.get $x))))
        (local.set $sb (f32x4.add (local.get $sb) (f32x4.mul (v128.load (i32.add (local.get $b) (local.get $at))) (local.get $x))))
        (local.set $sc (f32x4.add (local.get $sc) (f32x4.mul (v128.load (i32.add (local.get $c) (local.get $at))) (local.get $x))))
        (local.set $sd (f32x4.add (local.get $sd) (f32x4.mul (v128.load (i32.add (local.get $d) (local.get $at))) (local.get $x))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $cols)))
    (f32.store offset=0 (local.get $out) (call $lanes (local.get $sa)))
    (f32.store offset=4 (local.get $out) (call $lanes (local.get $sb)))
    (f32.store offset=8 (local.get $out) (call $lanes (local.get $sc)))
    (f32.store offset=12 (local.get $out) (call $lanes (local.get $sd))))

  ;; out[r] = vec[r] · q for r in [0, count)
  (func (export "scan") (param $vec i32) (param $q i32) (param $dim i32) (param $count i32) (param $out i32)
    (local $r i32) (local $stride i32) (local $row i32)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 2)))
    (block $quads_done
      (loop $quads
        (br_if $quads_done (i32.gt_u (i32.add (local.get $r) (i32.const 4)) (local.get $count)))
        (local.set $row (i32.add (local.get $vec) (i32.mul (local.get $r) (local.get $stride))))
        (call $four
          (local.get $row)
          (i32.add (local.get $row) (local.get $stride))
          (i32.add (local.get $row) (i32.shl (local.get $stride) (i32.const 1)))
          (i32.add (local.get $row) (i32.mul (local.get $stride) (i32.const 3)))
          (local.get $q) (local.get $dim)
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2))))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $quads)))
    (block $done
      (loop $rest
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $one (i32.add (local.get $vec) (i32.mul (local.get $r) (local.get $stride))) (local.get $q) (local.get $dim)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rest))))

  ;; The byte offset of row rows[i].
  (func $rowAt (param $vec i32) (param $stride i32) (param $rows i32) (param $i i32) (result i32)
    (i32.add (local.get $vec)
      (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))

  ;; out[i] = vec[rows[i]] · q for i in [0, n)
  (func (export "scanRows") (param $vec i32) (param $q i32) (param $dim i32) (param $rows i32) (param $n i32) (param $out i32)
    (local $i i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dim) (i32.const 2)))
    (block $quads_done
      (loop $quads
        (br_if $quads_done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
        (call $four
          (call $rowAt (local.get $vec) (local.get $stride) (local.get $rows) (local.get $i))
          (call $rowAt (local.get $vec) (local.get $stride) (local.get $rows) (i32.add (local.get $i) (i32.const 1)))
          (call $rowAt (local.get $vec) (local.get $stride) (local.get $rows) (i32.add (local.get $i) (i32.const 2)))
          (call $rowAt (local.get $vec) (local.get $stride) (local.get $rows) (i32.add (local.get $i) (i32.const 3)))
          (local.get $q) (local.get $dim)
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    (block $done
      (loop $rest
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (call $one (call $rowAt (local.get $vec) (local.get $stride) (local.get $rows) (local.get $i)) (local.get $q) (local.get $dim)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rest)))))

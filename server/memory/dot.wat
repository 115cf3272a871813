;; Dot products of one query with many vectors, four lanes at a time (WebAssembly SIMD), for
;; memory/vectors.ts. Vectors are f32 rows of `dim` lanes (a multiple of 4), one after another from
;; `vec`; the query is `dim` f32 lanes at `q`. (An int8 variant with i32x4.dot_i16x8_s measured slower.)
(module
  (import "env" "memory" (memory 1))
  ;; out[r] = vec[r] · q for r in [0, count)
  (func (export "scan") (param $vec i32) (param $q i32) (param $dim i32) (param $count i32) (param $out i32)
    (local $r i32) (local $j i32) (local $row i32) (local $acc v128)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (local.set $row (i32.add (local.get $vec) (i32.mul (local.get $r) (i32.shl (local.get $dim) (i32.const 2)))))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $cols_done
          (loop $cols
            (br_if $cols_done (i32.ge_u (local.get $j) (local.get $dim)))
            (local.set $acc
              (f32x4.add (local.get $acc)
                (f32x4.mul
                  (v128.load (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
                  (v128.load (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 2)))))))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $cols)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))
  ;; out[i] = vec[rows[i]] · q for i in [0, n)
  (func (export "scanRows") (param $vec i32) (param $q i32) (param $dim i32) (param $rows i32) (param $n i32) (param $out i32)
    (local $i i32) (local $j i32) (local $row i32) (local $acc v128)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $row
          (i32.add (local.get $vec)
            (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2))))
              (i32.shl (local.get $dim) (i32.const 2)))))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (block $cols_done
          (loop $cols
            (br_if $cols_done (i32.ge_u (local.get $j) (local.get $dim)))
            (local.set $acc
              (f32x4.add (local.get $acc)
                (f32x4.mul
                  (v128.load (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 2))))
                  (v128.load (i32.add (local.get $q) (i32.shl (local.get $j) (i32.const 2)))))))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $cols)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
            (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))))

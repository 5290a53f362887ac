// RUN: attnc-opt %s -split-input-file -verify-diagnostics

// The attn dialect's argument attributes (AttnDialect::verifyRegionArgAttribute):
// attn.packed_query_heads (attn-pack-gqa) and attn.scale
// (attn-generalize-scale); any other attn.* argument attribute is an error.

// Both as the passes write them, on a definition and on a declaration (whose
// argument types are those of its function type: it has no entry block).
func.func @valid(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i64},
                 %k: tensor<?x8x?x128xbf16>, %v: tensor<?x8x?x128xbf16>,
                 %s: f32 {attn.scale = 1.250000e-01 : f32}) -> tensor<?x8x?x128xbf16> {
  %o = attn.attention %q, %k, %v scale_value(%s)
      : tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>, tensor<?x8x?x128xbf16>
      -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}
func.func private @valid_declaration(tensor<?x1x?x64xf16> {attn.packed_query_heads = 32 : i64},
                                     f32 {attn.scale = 5.000000e-01 : f32})

// -----

//===----------------------------------------------------------------------===//
// attn.packed_query_heads
//===----------------------------------------------------------------------===//

// One query head per packed head is no packing: the attribute is left out.
// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 1 : i64 on 'tensor<?x8x?x128xbf16>'}}
func.func @packed_one(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 0 : i64 on 'tensor<?x8x?x128xbf16>'}}
func.func @packed_zero(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 0 : i64}) {
  return
}

// -----

// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got "4" on 'tensor<?x8x?x128xbf16>'}}
func.func @packed_string(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = "4"}) {
  return
}

// -----

// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 4.000000e+00 : f32 on 'tensor<?x8x?x128xbf16>'}}
func.func @packed_float(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4.0 : f32}) {
  return
}

// -----

// An integer of another width is not the i64 the conversion reads.
// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 4 : i32 on 'tensor<?x8x?x128xbf16>'}}
func.func @packed_i32(%q: tensor<?x8x?x128xbf16> {attn.packed_query_heads = 4 : i32}) {
  return
}

// -----

// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 4 : i64 on 'f32'}}
func.func @packed_on_scalar(%x: f32 {attn.packed_query_heads = 4 : i64}) {
  return
}

// -----

// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 4 : i64 on 'tensor<8x4x128xbf16>'}}
func.func @packed_on_rank3(%q: tensor<8x4x128xbf16> {attn.packed_query_heads = 4 : i64}) {
  return
}

// -----

// A declaration's arguments are verified from its function type.
// expected-error @+1 {{'attn.packed_query_heads' must be an i64 of at least 2 on a 4-D tensor or memref argument (the query heads each packed head holds), got 1 : i64 on 'tensor<?x8x?x128xbf16>'}}
func.func private @packed_one_declaration(tensor<?x8x?x128xbf16> {attn.packed_query_heads = 1 : i64})

// -----

//===----------------------------------------------------------------------===//
// attn.scale
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'attn.scale' must be an f32 value on an f32 argument}}
func.func @scale_on_f16(%s: f16 {attn.scale = 1.250000e-01 : f32}) {
  return
}

// -----

// expected-error @+1 {{'attn.scale' must be an f32 value on an f32 argument}}
func.func @scale_on_tensor(%s: tensor<f32> {attn.scale = 1.250000e-01 : f32}) {
  return
}

// -----

// expected-error @+1 {{'attn.scale' must be an f32 value on an f32 argument}}
func.func @scale_f64_value(%s: f32 {attn.scale = 1.250000e-01 : f64}) {
  return
}

// -----

// expected-error @+1 {{'attn.scale' must be an f32 value on an f32 argument}}
func.func @scale_not_float(%s: f32 {attn.scale = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{'attn.scale' must be an f32 value on an f32 argument}}
func.func private @scale_on_i32_declaration(i32 {attn.scale = 1.250000e-01 : f32})

// -----

//===----------------------------------------------------------------------===//
// Other attn.* argument attributes
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unknown argument attribute 'attn.foo' of the attn dialect}}
func.func @unknown(%x: tensor<?x8x?x128xbf16> {attn.foo = 1 : i64}) {
  return
}

// -----

// An attn.* attribute of ops is not an argument attribute.
// expected-error @+1 {{unknown argument attribute 'attn.stage' of the attn dialect}}
func.func @op_attr_on_argument(%x: index {attn.stage = 0 : i64}) {
  return
}

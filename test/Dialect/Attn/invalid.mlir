// RUN: attnc-opt %s -split-input-file -verify-diagnostics

// One case per verifier message of dialects/attn/AttnOps.cpp, plus the
// ODS-generated operand constraints.

//===----------------------------------------------------------------------===//
// attn.attention: ODS type constraints
//===----------------------------------------------------------------------===//

// A rank-3 query is not a 4-D operand.
func.func @query_rank3(%q: tensor<8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                       %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op operand #0 must be 4D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<8x128x64xf32>'}}
  %o = attn.attention %q, %k, %v
      : tensor<8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// Integer element types are not supported.
func.func @query_i32(%q: tensor<1x8x128x64xi32>, %k: tensor<1x8x128x64xi32>,
                     %v: tensor<1x8x128x64xi32>) -> tensor<1x8x128x64xi32> {
  // expected-error @+1 {{'attn.attention' op operand #0 must be 4D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<1x8x128x64xi32>'}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xi32>, tensor<1x8x128x64xi32>, tensor<1x8x128x64xi32>
      -> tensor<1x8x128x64xi32>
  return %o : tensor<1x8x128x64xi32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.attention: element types
//===----------------------------------------------------------------------===//

func.func @key_element_type(%q: tensor<1x8x128x64xbf16>, %k: tensor<1x8x128x64xf16>,
                            %v: tensor<1x8x128x64xbf16>) -> tensor<1x8x128x64xbf16> {
  // expected-error @+1 {{'attn.attention' op key element type 'f16' does not match query element type 'bf16'}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xbf16>, tensor<1x8x128x64xf16>, tensor<1x8x128x64xbf16>
      -> tensor<1x8x128x64xbf16>
  return %o : tensor<1x8x128x64xbf16>
}

// -----

func.func @value_element_type(%q: tensor<1x8x128x64xbf16>, %k: tensor<1x8x128x64xbf16>,
                              %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xbf16> {
  // expected-error @+1 {{'attn.attention' op value element type 'f32' does not match query element type 'bf16'}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xbf16>, tensor<1x8x128x64xbf16>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xbf16>
  return %o : tensor<1x8x128x64xbf16>
}

// -----

// The output keeps the input element type (accumulation is internal).
func.func @output_element_type(%q: tensor<1x8x128x64xbf16>, %k: tensor<1x8x128x64xbf16>,
                               %v: tensor<1x8x128x64xbf16>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op output element type 'f32' does not match query element type 'bf16'}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xbf16>, tensor<1x8x128x64xbf16>, tensor<1x8x128x64xbf16>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.attention: static heads and head dims
//===----------------------------------------------------------------------===//

func.func @query_heads_dynamic(%q: tensor<1x?x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                               %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op query heads must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x?x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @query_head_dim_dynamic(%q: tensor<1x8x128x?xf32>, %k: tensor<1x8x128x64xf32>,
                                  %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op query head dim must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x?xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// In bshd the heads are the third dimension: a dynamic second one is fine,
// a dynamic third one is not.
func.func @key_heads_dynamic_bshd(%q: tensor<1x?x8x64xf32>, %k: tensor<1x?x?x64xf32>,
                                  %v: tensor<1x?x8x64xf32>) -> tensor<1x?x8x64xf32> {
  // expected-error @+1 {{'attn.attention' op key heads must be static}}
  %o = attn.attention %q, %k, %v layout = bshd
      : tensor<1x?x8x64xf32>, tensor<1x?x?x64xf32>, tensor<1x?x8x64xf32>
      -> tensor<1x?x8x64xf32>
  return %o : tensor<1x?x8x64xf32>
}

// -----

func.func @key_head_dim_dynamic(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x?xf32>,
                                %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op key head dim must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x?xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @value_heads_dynamic(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                               %v: tensor<1x?x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op value heads must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x?x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @value_head_dim_dynamic(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                                  %v: tensor<1x8x128x?xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op value head dim must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x?xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @output_heads_dynamic(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                                %v: tensor<1x8x128x64xf32>) -> tensor<1x?x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op output heads must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x?x128x64xf32>
  return %o : tensor<1x?x128x64xf32>
}

// -----

func.func @output_head_dim_dynamic(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                                   %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x?xf32> {
  // expected-error @+1 {{'attn.attention' op output head dim must be static}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x?xf32>
  return %o : tensor<1x8x128x?xf32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.attention: shapes
//===----------------------------------------------------------------------===//

func.func @key_head_dim(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x32xf32>,
                        %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op key head dim 32 does not match query head dim 64}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x32xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @value_heads(%q: tensor<1x8x128x64xf32>, %k: tensor<1x2x128x64xf32>,
                       %v: tensor<1x4x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op value heads 4 does not match key heads 2}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x2x128x64xf32>, tensor<1x4x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// GQA needs Hq to be a multiple of Hkv.
func.func @gqa_not_multiple(%q: tensor<1x8x128x64xf32>, %k: tensor<1x3x128x64xf32>,
                            %v: tensor<1x3x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op query heads 8 is not a multiple of key/value heads 3}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x3x128x64xf32>, tensor<1x3x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @value_seq_len(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x256x64xf32>,
                         %v: tensor<1x8x200x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op value sequence length 200 does not match key sequence length 256}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x256x64xf32>, tensor<1x8x200x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @key_batch(%q: tensor<2x8x128x64xf32>, %k: tensor<3x8x128x64xf32>,
                     %v: tensor<3x8x128x64xf32>) -> tensor<2x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op key batch 3 does not match query batch 2}}
  %o = attn.attention %q, %k, %v
      : tensor<2x8x128x64xf32>, tensor<3x8x128x64xf32>, tensor<3x8x128x64xf32>
      -> tensor<2x8x128x64xf32>
  return %o : tensor<2x8x128x64xf32>
}

// -----

// A dynamic key batch is compatible; the value's static one is checked.
func.func @value_batch(%q: tensor<2x8x128x64xf32>, %k: tensor<?x8x128x64xf32>,
                       %v: tensor<4x8x128x64xf32>) -> tensor<2x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op value batch 4 does not match query batch 2}}
  %o = attn.attention %q, %k, %v
      : tensor<2x8x128x64xf32>, tensor<?x8x128x64xf32>, tensor<4x8x128x64xf32>
      -> tensor<2x8x128x64xf32>
  return %o : tensor<2x8x128x64xf32>
}

// -----

func.func @output_batch(%q: tensor<2x8x128x64xf32>, %k: tensor<2x8x128x64xf32>,
                        %v: tensor<2x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op output batch 1 does not match query batch 2}}
  %o = attn.attention %q, %k, %v
      : tensor<2x8x128x64xf32>, tensor<2x8x128x64xf32>, tensor<2x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// The output has one head per query head, not per key/value head.
func.func @output_heads(%q: tensor<1x8x128x64xf32>, %k: tensor<1x2x128x64xf32>,
                        %v: tensor<1x2x128x64xf32>) -> tensor<1x2x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op output heads 2 does not match query heads 8}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x2x128x64xf32>, tensor<1x2x128x64xf32>
      -> tensor<1x2x128x64xf32>
  return %o : tensor<1x2x128x64xf32>
}

// -----

// The output has the query's length, not the key's.
func.func @output_seq_len(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x256x64xf32>,
                          %v: tensor<1x8x256x64xf32>) -> tensor<1x8x256x64xf32> {
  // expected-error @+1 {{'attn.attention' op output sequence length 256 does not match query sequence length 128}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x256x64xf32>, tensor<1x8x256x64xf32>
      -> tensor<1x8x256x64xf32>
  return %o : tensor<1x8x256x64xf32>
}

// -----

// The output has the value head dim, not the query head dim.
func.func @output_head_dim(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                           %v: tensor<1x8x128x32xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op output head dim 64 does not match value head dim 32}}
  %o = attn.attention %q, %k, %v
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x32xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// LSE is [B, Hq, Nq] whatever the layout; a dynamic batch prints as '?'.
func.func @lse_shape(%q: tensor<?x128x8x64xf32>, %k: tensor<?x128x8x64xf32>,
                     %v: tensor<?x128x8x64xf32>)
    -> (tensor<?x128x8x64xf32>, tensor<?x128x8xf32>) {
  // expected-error @+1 {{'attn.attention' op lse shape [?, 128, 8] does not match [batch, query heads, query sequence length] = [?, 8, 128]}}
  %o, %lse = attn.attention %q, %k, %v layout = bshd
      : tensor<?x128x8x64xf32>, tensor<?x128x8x64xf32>, tensor<?x128x8x64xf32>
      -> tensor<?x128x8x64xf32>, tensor<?x128x8xf32>
  return %o, %lse : tensor<?x128x8x64xf32>, tensor<?x128x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.attention: attributes
//===----------------------------------------------------------------------===//

func.func @scale_twice(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                       %v: tensor<1x8x128x64xf32>, %s: f32) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op takes its scale as the scale attribute or as scale_value, not both}}
  %o = attn.attention %q, %k, %v scale = 0.125 scale_value(%s)
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @scale_zero(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                      %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op scale must be a finite positive number, got 0}}
  %o = attn.attention %q, %k, %v scale = 0.0
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @scale_negative(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                          %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op scale must be a finite positive number, got -5.000000e-01}}
  %o = attn.attention %q, %k, %v scale = -0.5
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// A constant scale_value is held to the scale attribute's rule.
func.func @scale_value_negative(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                                %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  %s = arith.constant -1.0 : f32
  // expected-error @+1 {{'attn.attention' op scale_value must be a finite positive number, got -1.000000e+00}}
  %o = attn.attention %q, %k, %v scale_value(%s)
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// ... and to its overflow rule.
func.func @scale_value_overflow(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                                %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  %s = arith.constant 3.0e38 : f32
  // expected-error @+1 {{'attn.attention' op scale_value must be at most 2.35e38 (scale * log2(e) must be a finite f32)}}
  %o = attn.attention %q, %k, %v scale_value(%s)
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// +inf as an f32 bit pattern.
func.func @scale_inf(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                     %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op scale must be a finite positive number, got INF}}
  %o = attn.attention %q, %k, %v scale = 0x7F800000
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @softcap_nan(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                       %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op softcap must be a finite positive number, got nan}}
  %o = attn.attention %q, %k, %v softcap = 0x7FC00000
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @softcap_zero(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                        %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op softcap must be a finite positive number, got 0}}
  %o = attn.attention %q, %k, %v softcap = 0.0
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @window_count(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                        %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op window must be [left, right], got 3 elements}}
  %o = attn.attention %q, %k, %v window = [16, 0, 4]
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// A window side past the longest sequence would overflow the masks' index
// arithmetic (diagonal + right) and hides nothing more than 2^31 - 1.
func.func @window_too_wide(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                           %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op window sizes must be at most 2147483647 (the longest sequence; a longer side hides nothing more), got [0, 9223372036854775807]}}
  %o = attn.attention %q, %k, %v window = [0, 9223372036854775807]
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @window_negative(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                           %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op window sizes must be non-negative, got [16, -1]}}
  %o = attn.attention %q, %k, %v mask = causal window = [16, -1]
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @tile_sizes_count(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                            %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op tile_sizes must be [block_m, block_n] with positive sizes}}
  %o = attn.attention %q, %k, %v tile_sizes = [64]
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @tile_sizes_zero(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                           %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op tile_sizes must be [block_m, block_n] with positive sizes}}
  %o = attn.attention %q, %k, %v tile_sizes = [64, 0]
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.load_tile
//===----------------------------------------------------------------------===//

func.func @load_tile_element_type(%q: tensor<1x8x128x64xbf16>, %i: index) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.load_tile' op tile element type 'f32' does not match source element type 'bf16'}}
  %t = attn.load_tile %q[%i, %i, %i] : tensor<1x8x128x64xbf16> -> tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}

// -----

func.func @load_tile_dynamic(%q: tensor<1x8x128x64xbf16>, %i: index) -> tensor<?x64xbf16> {
  // expected-error @+1 {{'attn.load_tile' op tile must have a static shape}}
  %t = attn.load_tile %q[%i, %i, %i] : tensor<1x8x128x64xbf16> -> tensor<?x64xbf16>
  return %t : tensor<?x64xbf16>
}

// -----

// The head dim is the last dimension in both layouts.
func.func @load_tile_columns(%q: tensor<1x128x8x64xbf16>, %i: index) -> tensor<64x8xbf16> {
  // expected-error @+1 {{'attn.load_tile' op tile columns 8 does not match source head dim 64}}
  %t = attn.load_tile %q[%i, %i, %i] layout = bshd : tensor<1x128x8x64xbf16> -> tensor<64x8xbf16>
  return %t : tensor<64x8xbf16>
}

// -----

//===----------------------------------------------------------------------===//
// attn.qk
//===----------------------------------------------------------------------===//

func.func @qk_key_element_type(%q: tensor<128x64xbf16>, %k: tensor<64x64xf16>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.qk' op key element type 'f16' does not match query element type 'bf16'}}
  %s = attn.qk %q, %k : tensor<128x64xbf16>, tensor<64x64xf16> -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// -----

func.func @qk_head_dim(%q: tensor<128x64xbf16>, %k: tensor<64x128xbf16>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.qk' op key head dim 128 does not match query head dim 64}}
  %s = attn.qk %q, %k : tensor<128x64xbf16>, tensor<64x128xbf16> -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// -----

func.func @qk_scores_rows(%q: tensor<128x64xbf16>, %k: tensor<32x64xbf16>) -> tensor<64x32xf32> {
  // expected-error @+1 {{'attn.qk' op scores rows 64 does not match query rows 128}}
  %s = attn.qk %q, %k : tensor<128x64xbf16>, tensor<32x64xbf16> -> tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}

// -----

func.func @qk_scores_columns(%q: tensor<128x64xbf16>, %k: tensor<32x64xbf16>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.qk' op scores columns 64 does not match key rows 32}}
  %s = attn.qk %q, %k : tensor<128x64xbf16>, tensor<32x64xbf16> -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.mask
//===----------------------------------------------------------------------===//

func.func @mask_window_count(%s: tensor<128x64xf32>, %i: index) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.mask' op window must be [left, right], got 1 elements}}
  %m = attn.mask %s rows %i cols %i seq_q %i seq_k %i window = [16] : tensor<128x64xf32>
  return %m : tensor<128x64xf32>
}

// -----

func.func @mask_window_negative(%s: tensor<128x64xf32>, %i: index) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.mask' op window sizes must be non-negative, got [-8, 0]}}
  %m = attn.mask %s rows %i cols %i seq_q %i seq_k %i kind = causal window = [-8, 0]
      : tensor<128x64xf32>
  return %m : tensor<128x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Row reductions
//===----------------------------------------------------------------------===//

func.func @row_max_init(%s: tensor<128x64xf32>, %m: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'attn.row_max' op init size 64 does not match tile rows 128}}
  %r = attn.row_max %s init %m : tensor<128x64xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Without init only the result is checked.
func.func @row_max_result(%s: tensor<128x64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'attn.row_max' op result size 64 does not match tile rows 128}}
  %r = attn.row_max %s : tensor<128x64xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @exp_diff_row_max(%s: tensor<128x64xf32>, %m: tensor<64xf32>) -> tensor<128x64xf32> {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.exp_diff' op row_max size 64 does not match tile rows 128}}
  %p = attn.exp_diff %s, %m scale_log2 %scale_cst0 : tensor<128x64xf32>, tensor<64xf32>
  return %p : tensor<128x64xf32>
}

// -----

func.func @exp_diff_software_exp2_period(%s: tensor<128x64xf32>, %m: tensor<128xf32>, %c: f32) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.exp_diff' op software_exp2_period must be at least 1 (one element pair in N), got 0}}
  %p = attn.exp_diff %s, %m scale_log2 %c {software_exp2_period = 0 : i64} : tensor<128x64xf32>, tensor<128xf32>
  return %p : tensor<128x64xf32>
}

// -----

func.func @exp_diff_software_exp2_negative(%s: tensor<128x64xf32>, %m: tensor<128xf32>, %c: f32) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.exp_diff' op software_exp2_period must be at least 1 (one element pair in N), got -2}}
  %p = attn.exp_diff %s, %m scale_log2 %c {software_exp2_period = -2 : i64} : tensor<128x64xf32>, tensor<128xf32>
  return %p : tensor<128x64xf32>
}

// -----

func.func @row_sum_init(%p: tensor<128x64xf32>, %l: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'attn.row_sum' op init size 64 does not match tile rows 128}}
  %r = attn.row_sum %p init %l : tensor<128x64xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @row_sum_result(%p: tensor<128x64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'attn.row_sum' op result size 64 does not match tile rows 128}}
  %r = attn.row_sum %p : tensor<128x64xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// init_scale rescales a running sum: without one there is nothing to scale.
func.func @row_sum_scale_without_init(%p: tensor<128x64xf32>, %a: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{'attn.row_sum' op init_scale rescales the init, which is missing}}
  %r = attn.row_sum %p scaled %a : tensor<128x64xf32> -> tensor<128xf32>
  return %r : tensor<128xf32>
}

// -----

//===----------------------------------------------------------------------===//
// attn.pv, attn.scale_rows, attn.finalize
//===----------------------------------------------------------------------===//

func.func @pv_value_rows(%p: tensor<128x64xf32>, %v: tensor<32x64xbf16>,
                         %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.pv' op value rows 32 does not match probs columns 64}}
  %r = attn.pv %p, %v, %acc : tensor<128x64xf32>, tensor<32x64xbf16>, tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// -----

func.func @pv_acc_rows(%p: tensor<128x64xf32>, %v: tensor<64x64xbf16>,
                       %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.pv' op acc rows 64 does not match probs rows 128}}
  %r = attn.pv %p, %v, %acc : tensor<128x64xf32>, tensor<64x64xbf16>, tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @pv_acc_columns(%p: tensor<128x64xf32>, %v: tensor<64x32xbf16>,
                          %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.pv' op acc columns 64 does not match value head dim 32}}
  %r = attn.pv %p, %v, %acc : tensor<128x64xf32>, tensor<64x32xbf16>, tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// -----

func.func @scale_rows_factor_tile(%acc: tensor<128x64xf32>, %f: tensor<64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'attn.scale_rows' op factor size 64 does not match tile rows 128}}
  %r = attn.scale_rows %acc, %f : tensor<128x64xf32>, tensor<64xf32>
  return %r : tensor<128x64xf32>
}

// -----

// Skipping a warp's rows is a choice about a tile; a row vector has none.
func.func @scale_rows_conditional_rows(%l: tensor<128xf32>, %f: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{'attn.scale_rows' op conditional applies to a 2-D tile (the accumulator), not to a row vector}}
  %r = attn.scale_rows %l, %f conditional : tensor<128xf32>, tensor<128xf32>
  return %r : tensor<128xf32>
}

// -----

// A rank-1 input has one row per element.
func.func @scale_rows_factor_rows(%l: tensor<128xf32>, %f: tensor<64xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{'attn.scale_rows' op factor size 64 does not match tile rows 128}}
  %r = attn.scale_rows %l, %f : tensor<128xf32>, tensor<64xf32>
  return %r : tensor<128xf32>
}

// -----

// row_max and lse share row_sum's type (AllTypesMatch), so only row_sum's
// size can differ from the tile's rows.
func.func @finalize_row_sum(%acc: tensor<128x64xf32>, %l: tensor<64xf32>,
                            %m: tensor<64xf32>) -> tensor<128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.finalize' op row_sum size 64 does not match tile rows 128}}
  %o, %lse = attn.finalize %acc, %l, %m scale %scale_cst0
      : tensor<128x64xf32>, tensor<64xf32> -> tensor<128x64xbf16>
  return %o : tensor<128x64xbf16>
}

// -----

func.func @finalize_row_max_type(%acc: tensor<128x64xf32>, %l: tensor<128xf32>,
                                 %m: tensor<64xf32>) -> tensor<128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.finalize' op failed to verify that all of {row_sum, row_max, lse} have same type}}
  %o, %lse = "attn.finalize"(%acc, %l, %m, %scale_cst0)
      : (tensor<128x64xf32>, tensor<128xf32>, tensor<64xf32>, f32) -> (tensor<128x64xbf16>, tensor<128xf32>)
  return %o : tensor<128x64xbf16>
}

// -----

func.func @finalize_output_shape(%acc: tensor<128x64xf32>, %l: tensor<128xf32>,
                                 %m: tensor<128xf32>) -> tensor<128x32xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.finalize' op output shape must match acc shape}}
  %o, %lse = attn.finalize %acc, %l, %m scale %scale_cst0
      : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x32xbf16>
  return %o : tensor<128x32xbf16>
}

// -----

#acc = #attn.wgmma_accumulator<warpgroups = 2>
#rows = #attn.accumulator_rows<#acc>
func.func @finalize_output_layout(%acc: tensor<128x64xf32, #acc>,
                                  %l: tensor<128xf32, #rows>,
                                  %m: tensor<128xf32, #rows>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.finalize' op output must have acc's layout}}
  %o, %lse = attn.finalize %acc, %l, %m scale %scale_cst0
      : tensor<128x64xf32, #acc>, tensor<128xf32, #rows> -> tensor<128x64xbf16>
  return
}

// -----

func.func @finalize_window(%acc: tensor<128x64xf32>, %l: tensor<128xf32>,
                           %m: tensor<128xf32>) -> tensor<128x64xbf16> {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.finalize' op window sizes must be non-negative, got [-1, 0]}}
  %o, %lse = attn.finalize %acc, %l, %m scale %scale_cst0 mask = causal window = [-1, 0]
      : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
  return %o : tensor<128x64xbf16>
}

// -----

func.func @ws_consumers(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<256x64xf32>,
                       %l: tensor<256xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op consumer_warpgroups must be 1, 2 or 3 (64 query rows each), got 4}}
  %o:2 = attn.warp_specialize consumers(4) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<256x64xf32>, tensor<256xf32> -> tensor<256x64xbf16>
    attn.yield %out, %lse : tensor<256x64xbf16>, tensor<256xf32>
  } : tensor<256x64xbf16>, tensor<256xf32>
  return
}

// -----

func.func @ws_stages(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                    %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op stages must be at least 2 (the producer fills one while the consumers read another), got 1}}
  %o:2 = attn.warp_specialize consumers(2) stages(1) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_producer_registers(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                                %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op producer_registers must be a multiple of 8 in [24, 256] (setmaxnreg), got 20}}
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(20, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_consumer_registers(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                                %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op consumer_registers must be a multiple of 8 in [24, 256] (setmaxnreg), got 250}}
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 250) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_register_budget(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                             %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op needs 128 x (40 + 2 x 240) = 66560 registers, more than the 65536 of an SM}}
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(40, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @turn_consumers(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<192x64xf32>,
                          %l: tensor<192xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(3) stages(2) registers(32, 160) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    // expected-error @+1 {{'attn.wait_turn' op needs exactly 2 consumer warpgroups (the turn alternates between them), got 3}}
    attn.wait_turn
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<192x64xf32>, tensor<192xf32> -> tensor<192x64xbf16>
    attn.yield %out, %lse : tensor<192x64xbf16>, tensor<192xf32>
  } : tensor<192x64xbf16>, tensor<192xf32>
  return
}

// -----

func.func @turn_outside_consumers() {
  // expected-error @+1 {{'attn.pass_turn' op must be inside the consumer region of an attn.warp_specialize}}
  attn.pass_turn
  return
}

// -----

func.func @turn_warpgroup(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                          %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    // expected-error @+1 {{'attn.pass_turn' op warpgroup must name a consumer warpgroup (0 or 1), got 2}}
    attn.pass_turn warpgroup(2)
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_output_rows(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                         %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op consumer_warpgroups (1) x 64 rows must equal the 128 rows of the output tile}}
  %o:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_producer_yield(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                            %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op producer region must yield no values}}
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield %kt : tensor<64x64xbf16>
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_consumer_yield(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                            %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op consumer region must yield the op's result types}}
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %lse, %lse : tensor<128xf32>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ws_no_push(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                     %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  // expected-error @+1 {{'attn.warp_specialize' op producer region must push K/V tiles with attn.ring_push}}
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ring_push_outside(%kt: tensor<64x64xbf16>) {
  // expected-error @+1 {{'attn.ring_push' op must be inside the producer region of an attn.warp_specialize}}
  attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
  return
}

// -----

func.func @ring_push_rows(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                          %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    %vt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<32x64xbf16>
    // expected-error @+1 {{'attn.ring_push' op key and value tiles must have the same rows (block_n), got 64 and 32}}
    attn.ring_push %kt, %vt : tensor<64x64xbf16>, tensor<32x64xbf16>
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @ring_pop_outside() {
  // expected-error @+1 {{'attn.ring_pop' op must be inside the consumer region of an attn.warp_specialize}}
  %k, %v = attn.ring_pop : tensor<64x64xbf16>, tensor<64x64xbf16>
  return
}

// -----

func.func @ring_pop_types(%k: tensor<?x4x?x64xbf16>, %i: index, %acc: tensor<128x64xf32>,
                          %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    // expected-error @+1 {{'attn.ring_pop' op must pop the tile types the producer pushes}}
    %kt, %vt = attn.ring_pop : tensor<32x64xbf16>, tensor<32x64xbf16>
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{'attn.yield' op expects parent op 'attn.warp_specialize'}}
  attn.yield
}

// -----

// expected-error @+1 {{keys and values overlap}}
func.func @shared_memory_overlap() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// expected-error @+1 {{values = 32768 (16384 bytes) must be 1024-byte aligned and inside size = 40000}}
func.func @shared_memory_outside() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 39000, key_full = 39008, value_full = 39024, key_empty = 39040, value_empty = 39056, size = 40000, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// O staged anywhere but from the start of the Q buffer is a buffer of its
// own, which may overlap no other.
// expected-error @+1 {{query and output overlap}}
func.func @shared_memory_output_inside_query() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 8192, output_bytes = 8192, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// From Q's start, O may not outgrow Q's buffer.
// expected-error @+1 {{output staged over query (24576 bytes) must fit in query_bytes = 16384}}
func.func @shared_memory_output_past_query() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 24576, keys = 24576, values = 40960, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 57344, key_full = 57352, value_full = 57368, key_empty = 57384, value_empty = 57400, size = 57416, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// expected-error @+1 {{keys and output overlap}}
func.func @shared_memory_output_over_keys() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 16384, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// expected-error @+1 {{buffer bytes must be positive}}
func.func @shared_memory_no_output() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 0, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// A K/V ring of no stage.
// expected-error @+1 {{stages must be 1..64, got 0}}
func.func @shared_memory_zero_stages() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 0, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// Offsets are bytes from the start of shared memory: none is negative.
// expected-error @+1 {{offsets and sizes must be 0..2^31, got -8}}
func.func @shared_memory_negative_offset() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = -8, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// A Q buffer of no bytes.
// expected-error @+1 {{buffer bytes must be positive}}
func.func @shared_memory_empty_query() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 0, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// Every K stage starts 1024-aligned (the 128-byte swizzle): the stage bytes
// are whole KiB.
// expected-error @+1 {{stage and P bytes must be multiples of 1024}}
func.func @shared_memory_unaligned_stage() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 7680, value_stage_bytes = 8192, query_full = 40960, key_full = 40968, value_full = 40984, key_empty = 41000, value_empty = 41016, size = 41032, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// A P buffer needs its offset, its size and its layout.
// expected-error @+1 {{probs, probs_bytes and probs_layout go together}}
func.func @shared_memory_probs_without_bytes() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, probs = 40960, probs_layout = #attn.swizzled_shared<swizzle = 128>, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// expected-error @+1 {{probs, probs_bytes and probs_layout go together}}
func.func @shared_memory_probs_without_layout() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, probs = 40960, probs_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// expected-error @+1 {{probs, probs_bytes and probs_layout go together}}
func.func @shared_memory_probs_layout_without_buffer() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 8192, output = 0, output_bytes = 8192, keys = 8192, values = 24576, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, probs_layout = #attn.swizzled_shared<swizzle = 128>, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2]>} {
  return
}

// -----

// bar.sync 0 is the whole CTA's barrier: no warpgroup takes it.
// expected-error @+1 {{warpgroup_barriers ids must be 1..15 (0 is the CTA's barrier), got 0}}
func.func @shared_memory_cta_barrier() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [0, 1]>} {
  return
}

// -----

// There are 16 named barriers a CTA.
// expected-error @+1 {{turn_barriers ids must be 1..15 (0 is the CTA's barrier), got 16}}
func.func @shared_memory_barrier_16() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [15, 16]>} {
  return
}

// -----

// A warpgroup barrier that is also a turn barrier.
// expected-error @+1 {{named barrier 2 is allocated twice}}
func.func @shared_memory_barrier_twice() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = [1, 2], turn_barriers = [2, 3]>} {
  return
}

// -----

// Every tile has at least one consumer warpgroup.
// expected-error @+1 {{warpgroup_barriers needs one id per consumer warpgroup, got none}}
func.func @shared_memory_no_warpgroup_barriers() attributes {attn.shared_memory = #attn.shared_memory<query = 0, query_bytes = 16384, output = 0, output_bytes = 16384, keys = 16384, values = 32768, stages = 2, key_stage_bytes = 8192, value_stage_bytes = 8192, query_full = 49152, key_full = 49160, value_full = 49176, key_empty = 49192, value_empty = 49208, size = 49224, warpgroup_barriers = []>} {
  return
}

// -----

func.func @tile_too_large(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                          %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op tile_sizes must be at most 1024 rows each (a block_m x block_n f32 score tile of at most 4 MiB), got [100000, 100000]}}
  %o = attn.attention %q, %k, %v tile_sizes = [100000, 100000]
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

func.func @scale_overflows(%q: tensor<1x8x128x64xf32>, %k: tensor<1x8x128x64xf32>,
                           %v: tensor<1x8x128x64xf32>) -> tensor<1x8x128x64xf32> {
  // expected-error @+1 {{'attn.attention' op scale must be at most 2.35e38 (scale * log2(e) must be a finite f32), got 3.000000e+38}}
  %o = attn.attention %q, %k, %v scale = 3.0e38
      : tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>, tensor<1x8x128x64xf32>
      -> tensor<1x8x128x64xf32>
  return %o : tensor<1x8x128x64xf32>
}

// -----

// The kernel ABI attribute: names the runtime does not know, missing or
// mistyped fields, and what the runtime's manifest validator rejects.

// expected-error @+1 {{#attn.kernel_abi: unknown parameter kind 'tensor'}}
func.func private @kernel_abi_0() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: unknown tensor 'x'}}
func.func private @kernel_abi_1() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "x", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: unknown symbol 'seq_x'}}
func.func private @kernel_abi_2() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_x">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: params[4]: only a tensor_map has a box}}
func.func private @kernel_abi_3() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q", box = [1]>, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: params[0] must be an #attn.kernel_param}}
func.func private @kernel_abi_4() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [1 : i64, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: grid must have 3 dimensions (x, y, z), got 2}}
func.func private @kernel_abi_5() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: grid[1] must be an #attn.grid_dim}}
func.func private @kernel_abi_6() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, 1 : i64, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: grid[2] must multiply symbol names}}
func.func private @kernel_abi_7() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<[1 : i64]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: problem.dtype must be a string}}
func.func private @kernel_abi_8() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: unknown dtype 'f8'}}
func.func private @kernel_abi_9() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "f8", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: problem.head_dim must be an integer}}
func.func private @kernel_abi_10() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = "128", head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: problem.gqa must be true or false}}
func.func private @kernel_abi_11() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = 0 : i64, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: options.block_m must be an integer, a float or a string}}
func.func private @kernel_abi_12() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = [128], heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: threads_per_block: expected 1..1024, found 0}}
func.func private @kernel_abi_threads() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 0, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = false, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "causal"}, options = {block_m = 128 : i64, heads_kv = 16 : i64, heads_q = 16 : i64}>}

// -----

// problem.packed_query_heads (attn-pack-gqa): an integer, checked as the
// runtime's manifest validator checks it.
// expected-error @+1 {{#attn.kernel_abi: problem.packed_query_heads must be an integer}}
func.func private @kernel_abi_packed_string() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = "4"}, options = {block_m = 128 : i64, heads_kv = 8 : i64, heads_q = 32 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: problem.packed_query_heads: is 0; a packed head holds at least 2 query heads (leave it out for an unpacked kernel)}}
func.func private @kernel_abi_packed_zero() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = 0 : i64}, options = {block_m = 128 : i64, heads_kv = 8 : i64, heads_q = 32 : i64}>}

// -----

// expected-error @+1 {{#attn.kernel_abi: problem.packed_query_heads: is 2 but options.heads_q = 32 is not that many times options.heads_kv = 8}}
func.func private @kernel_abi_packed_heads() attributes {attn.kernel_abi = #attn.kernel_abi<threads = 384, shared_memory = 229480, grid = [#attn.grid_dim<["seq_q"], ceil_div = 128>, #attn.grid_dim<["heads_q"]>, #attn.grid_dim<["batch"]>], params = [#attn.kernel_param<"tensor_map", "q", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "k", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "v", box = [64, 128, 1, 1]>, #attn.kernel_param<"tensor_map", "o", box = [64, 64, 1, 1]>, #attn.kernel_param<"i32", "seq_q">, #attn.kernel_param<"i32", "seq_k">, #attn.kernel_param<"f32", "scale">], problem = {dtype = "bf16", gqa = true, has_lse = false, head_dim = 128 : i64, head_dim_v = 128 : i64, layout = "bhsd", mask = "none", packed_query_heads = 2 : i64}, options = {block_m = 128 : i64, heads_kv = 8 : i64, heads_q = 32 : i64}>}

// -----

// A pipeline stage is 0 or 1 (two-stage software pipelines only).
func.func @stage_two(%acc: tensor<64x64xf32>, %a: tensor<64xf32>, %n: index) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<64x64xf32>) {
    // expected-error @+1 {{'attn.stage' must be 0 or 1 (an i64), got 2 : i64}}
    %s = attn.scale_rows %o, %a {attn.stage = 2 : i64} : tensor<64x64xf32>, tensor<64xf32>
    scf.yield %s : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// -----

// A stage orders the ops of a loop's iterations: outside a loop it means
// nothing.
func.func @stage_outside_loop(%acc: tensor<64x64xf32>, %a: tensor<64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.stage' belongs on an attn tile op in a kv loop}}
  %s = attn.scale_rows %acc, %a {attn.stage = 1 : i64} : tensor<64x64xf32>, tensor<64xf32>
  return %s : tensor<64x64xf32>
}

// -----

func.func @stage_on_arith(%x: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'attn.stage' belongs on an attn tile op in a kv loop}}
    %y = arith.addi %x, %i {attn.stage = 1 : i64} : index
  }
  return
}

// -----

func.func @softcap_negative_cap(%s: tensor<64x64xf32>, %scale: f32) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.softcap' op cap must be a finite positive number, got -3.000000e+01}}
  %r = attn.softcap %s scale %scale cap = -30.0 : tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// attn.truncate rounds to a 16-bit type, in place: same shape and layout.
func.func @truncate_to_f32(%p: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.truncate' op rounds to bf16 or f16, not 'f32'}}
  %r = attn.truncate %p : tensor<64x64xf32> to tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @truncate_shape(%p: tensor<64x64xf32>) -> tensor<64x32xbf16> {
  // expected-error @+1 {{'attn.truncate' op result must have the input's shape and layout: 'tensor<64x64xf32>' vs 'tensor<64x32xbf16>'}}
  %r = attn.truncate %p : tensor<64x64xf32> to tensor<64x32xbf16>
  return %r : tensor<64x32xbf16>
}

// -----

func.func @truncate_layout(%p: tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>) -> tensor<128x64xbf16> {
  // expected-error @+1 {{'attn.truncate' op result must have the input's shape and layout}}
  %r = attn.truncate %p : tensor<128x64xf32, #attn.wgmma_accumulator<warpgroups = 2>> to tensor<128x64xbf16>
  return %r : tensor<128x64xbf16>
}

// -----

// P given in 16 bits must be V's element type: attn.pv rounds only f32 P.
func.func @pv_probs_type(%p: tensor<64x64xbf16>, %v: tensor<64x64xf16>,
                         %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.pv' op probs of type 'bf16' must be f32 or the value's element type 'f16'}}
  %o = attn.pv %p, %v, %acc : tensor<64x64xbf16>, tensor<64x64xf16>, tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}

// -----

// A scale of the scores must keep their order and a masked -inf.
func.func @softcap_zero_output_scale(%s: tensor<64x64xf32>, %scale: f32) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.softcap' op output_scale must be a finite positive number, got 0}}
  %r = attn.softcap %s scale %scale cap = 30.0 output_scale = 0.0 : tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @row_max_negative_score_scale(%s: tensor<64x64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'attn.row_max' op score_scale must be a finite positive number, got -3.000000e+01}}
  %m = attn.row_max %s score_scale = -30.0 : tensor<64x64xf32> -> tensor<64xf32>
  return %m : tensor<64xf32>
}

// -----

func.func @exp_diff_infinite_score_scale(%s: tensor<64x64xf32>, %m: tensor<64xf32>, %c: f32) -> tensor<64x64xf32> {
  // expected-error @+1 {{'attn.exp_diff' op score_scale must be a finite positive number, got INF}}
  %p = attn.exp_diff %s, %m scale_log2 %c score_scale = 0x7F800000 : tensor<64x64xf32>, tensor<64xf32>
  return %p : tensor<64x64xf32>
}

// -----

// Tile layouts (dialects/attn/TileLayouts.cpp): each encodes only the
// tensor types it can hold.

// expected-error @+1 {{#attn.wgmma_accumulator<warpgroups = 2> encodes 2-D f32, bf16 or f16 tiles}}
func.func private @accumulator_rank(tensor<128xf32, #attn.wgmma_accumulator<warpgroups = 2>>)

// -----

// expected-error @+1 {{#attn.wgmma_accumulator<warpgroups = 2> holds 64 rows per warpgroup (128), not 64}}
func.func private @accumulator_rows(tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 2>>)

// -----

// expected-error @+1 {{#attn.wgmma_accumulator<warpgroups = 1>: columns must be a multiple of 8 up to 256 (wgmma's N), got 36}}
func.func private @accumulator_columns(tensor<64x36xf32, #attn.wgmma_accumulator<warpgroups = 1>>)

// -----

// expected-error @+1 {{#attn.wgmma_accumulator: warpgroups must be positive, got 0}}
func.func private @accumulator_warpgroups(tensor<64x64xf32, #attn.wgmma_accumulator<warpgroups = 0>>)

// -----

// expected-error @+1 {{#attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>> encodes 1-D f32 row vectors}}
func.func private @rows_rank(tensor<128x64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>)

// -----

// expected-error @+1 {{#attn.wgmma_accumulator<warpgroups = 2> holds 64 rows per warpgroup (128), not 64}}
func.func private @rows_count(tensor<64xf32, #attn.accumulator_rows<#attn.wgmma_accumulator<warpgroups = 2>>>)

// -----

// expected-error @+1 {{#attn.swizzled_shared: swizzle must be 32, 64 or 128 bytes, got 48}}
func.func private @shared_swizzle(tensor<128x64xbf16, #attn.swizzled_shared<swizzle = 48>>)

// -----

// expected-error @+1 {{#attn.swizzled_shared<swizzle = 128> encodes 2-D bf16/f16 tiles}}
func.func private @shared_element(tensor<128x64xf32, #attn.swizzled_shared<swizzle = 128>>)

// -----

// expected-error @+1 {{#attn.swizzled_shared<swizzle = 128>: rows must be a multiple of 8 and columns static}}
func.func private @shared_rows(tensor<12x64xbf16, #attn.swizzled_shared<swizzle = 128>>)

// -----

func.func @kv_splits_zero(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                          %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %zero = arith.constant 0 : index
  // expected-error @+1 {{'attn.attention' op kv_splits must be at least 1, got 0}}
  %o = attn.attention %q, %k, %v kv_splits(%zero)
      : tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>
      -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

func.func @combine_splits_lse_shape(%po: tensor<4x1x2x?x64xf32>, %pl: tensor<3x1x2x?xf32>)
    -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{'attn.combine_splits' op partial_lse must be [S, B, Hq, Nq] of partial_output's [S, B, Hq, Nq, Dv]}}
  %o, %lse = attn.combine_splits %po, %pl : tensor<4x1x2x?x64xf32>, tensor<3x1x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

func.func @combine_splits_heads(%po: tensor<4x1x2x?x64xf32>, %pl: tensor<4x1x2x?xf32>)
    -> tensor<1x4x?x64xbf16> {
  // expected-error @+1 {{'attn.combine_splits' op output [B, Hq, Nq, Dv] and lse [B, Hq, Nq] must be the partials' without the split dimension}}
  %o, %lse = attn.combine_splits %po, %pl : tensor<4x1x2x?x64xf32>, tensor<4x1x2x?xf32>
      -> tensor<1x4x?x64xbf16>, tensor<1x4x?xf32>
  return %o : tensor<1x4x?x64xbf16>
}

// -----

func.func @combine_splits_head_dim(%po: tensor<4x1x2x?x64xf32>, %pl: tensor<4x1x2x?xf32>)
    -> tensor<1x?x2x32xbf16> {
  // expected-error @+1 {{'attn.combine_splits' op output head dim 32 does not match the partials' 64}}
  %o, %lse = attn.combine_splits %po, %pl layout = bshd : tensor<4x1x2x?x64xf32>, tensor<4x1x2x?xf32>
      -> tensor<1x?x2x32xbf16>, tensor<1x2x?xf32>
  return %o : tensor<1x?x2x32xbf16>
}

// -----

func.func @combine_splits_lse_batch(%po: tensor<?x?x2x?x64xf32>, %pl: tensor<?x?x2x?xf32>)
    -> tensor<1x2x?x64xbf16> {
  // expected-error @+1 {{'attn.combine_splits' op output [B, Hq, Nq, Dv] and lse [B, Hq, Nq] must be the partials' without the split dimension}}
  %o, %lse = attn.combine_splits %po, %pl : tensor<?x?x2x?x64xf32>, tensor<?x?x2x?xf32>
      -> tensor<1x2x?x64xbf16>, tensor<2x2x?xf32>
  return %o : tensor<1x2x?x64xbf16>
}

// -----

func.func @ring_release_outside(%t: tensor<64x64xbf16>) {
  // expected-error @+1 {{'attn.ring_release' op must be inside the consumer region of an attn.warp_specialize}}
  attn.ring_release %t : tensor<64x64xbf16>
  return
}

// -----

// A release is ordered after row vectors only.
func.func @ring_release_after_tile(%t: tensor<64x64xbf16>, %s: tensor<64x64xf32>) {
  // expected-error @+1 {{'attn.ring_release' op operand #1 must be variadic of 1D tensor of 32-bit float values}}
  attn.ring_release %t after(%s : tensor<64x64xf32>) : tensor<64x64xbf16>
  return
}

// -----

func.func @ring_release_not_popped(%k: tensor<?x4x?x64xbf16>, %i: index, %t: tensor<64x64xbf16>,
                                   %acc: tensor<128x64xf32>, %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    attn.yield
  } consumer {
    // expected-error @+1 {{'attn.ring_release' op releases a tile of attn.ring_pop}}
    attn.ring_release %t : tensor<64x64xbf16>
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @paged_dynamic_page_size(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x?x2x64xbf16>,
                                   %v: tensor<?x?x2x64xbf16>, %t: tensor<?x?xi32>,
                                   %l: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op the key pool's page size (dim 1 of [num_pages, page_size, heads, head_dim]) must be static and positive, got ?}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16> -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @paged_pools_differ(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                              %v: tensor<?x32x2x64xbf16>, %t: tensor<?x?xi32>,
                              %l: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op the value pool's pages [?, 32] do not match the key pool's [?, 16]}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x32x2x64xbf16> -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @paged_table_batch(%q: tensor<2x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                             %v: tensor<?x16x2x64xbf16>, %t: tensor<3x?xi32>,
                             %l: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op block_table has 3 rows but the query batch is 2}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<3x?xi32>, tensor<2xi32>)
      : tensor<2x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

func.func @paged_table_empty(%q: tensor<2x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                             %v: tensor<?x16x2x64xbf16>, %t: tensor<2x0xi32>,
                             %l: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op block_table must have at least one column (a sequence's pages)}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<2x0xi32>, tensor<2xi32>)
      : tensor<2x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

func.func @paged_lengths_batch(%q: tensor<2x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                               %v: tensor<?x16x2x64xbf16>, %t: tensor<2x?xi32>,
                               %l: tensor<4xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op cache_lengths has 4 entries but the query batch is 2}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<2x?xi32>, tensor<4xi32>)
      : tensor<2x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

// A dynamic batch: the table's rows and the lengths still disagree.
func.func @paged_lengths_table(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                               %v: tensor<?x16x2x64xbf16>, %t: tensor<3x?xi32>,
                               %l: tensor<5xi32>) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op cache_lengths has 5 entries but block_table has 3 rows (one each per sequence)}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<3x?xi32>, tensor<5xi32>)
      : tensor<?x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @paged_heads(%q: tensor<2x8x1x64xbf16>, %k: tensor<?x16x3x64xbf16>,
                       %v: tensor<?x16x3x64xbf16>, %t: tensor<2x?xi32>,
                       %l: tensor<2xi32>) -> tensor<2x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op query heads 8 is not a multiple of key/value heads 3}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<2x?xi32>, tensor<2xi32>)
      : tensor<2x8x1x64xbf16>, tensor<?x16x3x64xbf16>, tensor<?x16x3x64xbf16> -> tensor<2x8x1x64xbf16>
  return %o : tensor<2x8x1x64xbf16>
}

// -----

func.func @load_paged_tile_page_size(%k: tensor<?x?x2x64xbf16>, %t: tensor<?x?xi32>,
                                     %i: index) -> tensor<32x64xbf16> {
  // expected-error @+1 {{'attn.load_paged_tile' op the pool's page size (dim 1 of [num_pages, page_size, heads, head_dim]) must be static and positive}}
  %x = attn.load_paged_tile %k[%i, %i, %i] pages %t length %i
      : tensor<?x?x2x64xbf16>, tensor<?x?xi32> -> tensor<32x64xbf16>
  return %x : tensor<32x64xbf16>
}

// -----

func.func @load_paged_tile_columns(%k: tensor<?x16x2x64xbf16>, %t: tensor<?x?xi32>,
                                   %i: index) -> tensor<32x32xbf16> {
  // expected-error @+1 {{'attn.load_paged_tile' op tile columns}}
  %x = attn.load_paged_tile %k[%i, %i, %i] pages %t length %i
      : tensor<?x16x2x64xbf16>, tensor<?x?xi32> -> tensor<32x32xbf16>
  return %x : tensor<32x32xbf16>
}

// -----

func.func @varlen_batch(%q: tensor<2x8x?x64xbf16>, %k: tensor<2x2x?x64xbf16>,
                        %v: tensor<2x2x?x64xbf16>, %cq: tensor<?xi32>,
                        %ck: tensor<?xi32>) -> tensor<2x8x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op query batch must be 1 with varlen (the sequences are packed along the sequence dim), got 2}}
  %o = attn.attention %q, %k, %v varlen(%cq, %ck : tensor<?xi32>, tensor<?xi32>)
      : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16> -> tensor<2x8x?x64xbf16>
  return %o : tensor<2x8x?x64xbf16>
}

// -----

func.func @varlen_offsets_differ(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                                 %v: tensor<1x2x?x64xbf16>, %cq: tensor<3xi32>,
                                 %ck: tensor<4xi32>) -> tensor<1x8x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op cu_seqlens_q has 3 offsets but cu_seqlens_k has 4 (each is [number of sequences + 1])}}
  %o = attn.attention %q, %k, %v varlen(%cq, %ck : tensor<3xi32>, tensor<4xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

func.func @varlen_no_sequence(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                              %v: tensor<1x2x?x64xbf16>, %cq: tensor<1xi32>,
                              %ck: tensor<1xi32>) -> tensor<1x8x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op cu_seqlens_q must hold at least 2 offsets (one sequence), got 1}}
  %o = attn.attention %q, %k, %v varlen(%cq, %ck : tensor<1xi32>, tensor<1xi32>)
      : tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16> -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

func.func @varlen_paged(%q: tensor<1x8x?x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                        %v: tensor<?x16x2x64xbf16>, %t: tensor<1x?xi32>, %l: tensor<1xi32>,
                        %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<1x8x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op varlen with a paged KV cache is not supported yet}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<1x?xi32>, tensor<1xi32>)
      varlen(%cq, %ck : tensor<?xi32>, tensor<?xi32>)
      : tensor<1x8x?x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

func.func @load_varlen_tile_batch(%k: tensor<2x2x?x64xbf16>, %i: index) -> tensor<32x64xbf16> {
  // expected-error @+1 {{'attn.load_varlen_tile' op source batch must be 1 (packed sequences), got 2}}
  %x = attn.load_varlen_tile %k[%i, %i] rows %i to %i
      : tensor<2x2x?x64xbf16> -> tensor<32x64xbf16>
  return %x : tensor<32x64xbf16>
}

// -----

func.func @load_varlen_tile_columns(%k: tensor<1x2x?x64xbf16>, %i: index) -> tensor<32x32xbf16> {
  // expected-error @+1 {{'attn.load_varlen_tile' op tile columns}}
  %x = attn.load_varlen_tile %k[%i, %i] rows %i to %i
      : tensor<1x2x?x64xbf16> -> tensor<32x32xbf16>
  return %x : tensor<32x32xbf16>
}

// -----

func.func @packed_rows_not_multiple(%q: tensor<1x8x6x64xbf16>, %k: tensor<1x8x?x64xbf16>,
                                    %v: tensor<1x8x?x64xbf16>) -> tensor<1x8x6x64xbf16> {
  // expected-error @+1 {{'attn.attention' op query sequence length 6 is not a multiple of packed_query_heads = 4 (each packed head holds 4 query heads' rows)}}
  %o = attn.attention %q, %k, %v packed_query_heads = 4
      : tensor<1x8x6x64xbf16>, tensor<1x8x?x64xbf16>, tensor<1x8x?x64xbf16> -> tensor<1x8x6x64xbf16>
  return %o : tensor<1x8x6x64xbf16>
}

// -----

func.func @packed_one(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x8x?x64xbf16>,
                      %v: tensor<1x8x?x64xbf16>) -> tensor<1x8x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op attribute 'packed_query_heads' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2}}
  %o = attn.attention %q, %k, %v packed_query_heads = 1
      : tensor<1x8x?x64xbf16>, tensor<1x8x?x64xbf16>, tensor<1x8x?x64xbf16> -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

func.func @paged_no_pages(%q: tensor<?x8x1x64xbf16>, %k: tensor<0x16x2x64xbf16>,
                          %v: tensor<0x16x2x64xbf16>, %t: tensor<?x?xi32>,
                          %l: tensor<?xi32>) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op the key pool must hold at least one page}}
  %o = attn.attention %q, %k, %v pages(%t, %l : tensor<?x?xi32>, tensor<?xi32>)
      : tensor<?x8x1x64xbf16>, tensor<0x16x2x64xbf16>, tensor<0x16x2x64xbf16> -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @load_paged_tile_no_pages(%k: tensor<0x16x2x64xbf16>, %t: tensor<?x?xi32>,
                                    %i: index) -> tensor<32x64xbf16> {
  // expected-error @+1 {{'attn.load_paged_tile' op the pool must hold at least one page}}
  %x = attn.load_paged_tile %k[%i, %i, %i] pages %t length %i
      : tensor<0x16x2x64xbf16>, tensor<?x?xi32> -> tensor<32x64xbf16>
  return %x : tensor<32x64xbf16>
}

// -----

// The generic form can give one of each pair: both are required.
func.func @paged_table_only(%q: tensor<?x8x1x64xbf16>, %k: tensor<?x16x2x64xbf16>,
                            %v: tensor<?x16x2x64xbf16>, %t: tensor<?x?xi32>) -> tensor<?x8x1x64xbf16> {
  // expected-error @+1 {{'attn.attention' op a paged KV cache takes both block_table and cache_lengths}}
  %o = "attn.attention"(%q, %k, %v, %t) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0>}>
      : (tensor<?x8x1x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x?xi32>) -> tensor<?x8x1x64xbf16>
  return %o : tensor<?x8x1x64xbf16>
}

// -----

func.func @varlen_query_offsets_only(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x2x?x64xbf16>,
                                     %v: tensor<1x2x?x64xbf16>, %cq: tensor<?xi32>) -> tensor<1x8x?x64xbf16> {
  // expected-error @+1 {{'attn.attention' op a variable-length batch takes both cu_seqlens_q and cu_seqlens_k}}
  %o = "attn.attention"(%q, %k, %v, %cq) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1, 0>}>
      : (tensor<1x8x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<?xi32>) -> tensor<1x8x?x64xbf16>
  return %o : tensor<1x8x?x64xbf16>
}

// -----

func.func @launch_dependents_in_producer(%k: tensor<?x4x?x64xbf16>, %i: index,
                                         %acc: tensor<64x64xf32>, %l: tensor<64xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(1) stages(2) registers(40, 232) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    // expected-error @+1 {{'attn.launch_dependents' op must be in the consumer region of an attn.warp_specialize, not in its producer region}}
    attn.launch_dependents
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xbf16>
    attn.yield %out, %lse : tensor<64x64xbf16>, tensor<64xf32>
  } : tensor<64x64xbf16>, tensor<64xf32>
  return
}

// -----

func.func @launch_dependents_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'attn.launch_dependents' op must be at the top level of a tile: the consumer region of an attn.warp_specialize or the body of the tiling scf.forall, got a parent 'scf.for'}}
    attn.launch_dependents
  }
  return
}

// -----

// attn.wait_tile waits for a tile that lands asynchronously in a ring stage.
func.func @wait_tile_not_loaded(%t: tensor<64x64xbf16>) {
  // expected-error @+1 {{'attn.wait_tile' op waits for a tile of attn.ring_pop (or one a software-pipelined kv loop carries from it) or of an attn.load_tile}}
  attn.wait_tile %t : tensor<64x64xbf16>
  return
}

// -----

// The producer issues no GEMMs to wait for.
func.func @wait_gemms_in_producer(%k: tensor<?x4x?x64xbf16>, %i: index,
                                  %acc: tensor<128x64xf32>, %l: tensor<128xf32>) {
  %scale_cst0 = arith.constant 1.0 : f32
  %o:2 = attn.warp_specialize consumers(2) stages(2) registers(24, 240) producer {
    %kt = attn.load_tile %k[%i, %i, %i] : tensor<?x4x?x64xbf16> -> tensor<64x64xbf16>
    attn.ring_push %kt, %kt : tensor<64x64xbf16>, tensor<64x64xbf16>
    // expected-error @+1 {{'attn.wait_gemms' op must be in the consumer region of an attn.warp_specialize, where the GEMMs are issued}}
    attn.wait_gemms pending(0)
    attn.yield
  } consumer {
    %out, %lse = attn.finalize %acc, %l, %l scale %scale_cst0
        : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x64xbf16>
    attn.yield %out, %lse : tensor<128x64xbf16>, tensor<128xf32>
  } : tensor<128x64xbf16>, tensor<128xf32>
  return
}

// -----

func.func @wait_gemms_negative() {
  // expected-error @+1 {{'attn.wait_gemms' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  attn.wait_gemms pending(-1)
  return
}

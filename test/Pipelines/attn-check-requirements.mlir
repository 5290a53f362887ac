// With every registration (attnc-opt registers all of upstream) the check
// passes and changes nothing. Each requirement it names when missing is
// tested in registration.test, where the context can lack one.
// RUN: attnc-opt --attn-check-requirements %s | FileCheck %s

// CHECK-LABEL: func.func @graph
// CHECK-NEXT: attn.attention
func.func @graph(%q: tensor<1x4x256x64xbf16>, %k: tensor<1x4x256x64xbf16>,
                 %v: tensor<1x4x256x64xbf16>) -> tensor<1x4x256x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x256x64xbf16>, tensor<1x4x256x64xbf16>, tensor<1x4x256x64xbf16>
      -> tensor<1x4x256x64xbf16>
  return %o : tensor<1x4x256x64xbf16>
}

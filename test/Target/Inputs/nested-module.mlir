// A function inside a nested module: attnc compiles the top level only.
module {
  module @inner {
    func.func @nm(%q: tensor<1x1x?x64xbf16>) -> tensor<1x1x?x64xbf16> {
      return %q : tensor<1x1x?x64xbf16>
    }
  }
}

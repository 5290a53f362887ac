// No function at all (only a declaration).
func.func private @external(tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32>

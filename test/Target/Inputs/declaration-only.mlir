// Declarations only: no function body to compile.
func.func private @ext(tensor<1xf32>) -> tensor<1xf32>

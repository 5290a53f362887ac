//===- InputNesting.h - refuse input nested too deeply to parse ---*- C++ -*-===//
//
// Part of the attnc project, under the Apache License v2.0 with LLVM
// Exceptions. SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MLIR's parser is recursive descent: every level of (), [], {} or <> takes
// stack, and 20,000 levels overflowed the 8 MiB main-thread stack (a crash,
// not a diagnostic). The attnc tools check the nesting depth before parsing.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_TOOLS_INPUTNESTING_H
#define ATTNC_TOOLS_INPUTNESTING_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::attn {

/// The deepest nesting of brackets the attnc tools parse; attention graphs
/// and their lowered IR nest a few dozen levels.
inline constexpr unsigned kMaxInputNesting = 1000;

/// Fails with "`name`:line:col: error: ..." on stderr where `text` nests
/// (), [], {} or <> deeper than kMaxInputNesting, outside strings and
/// comments.
inline LogicalResult checkInputNesting(StringRef text, StringRef name) {
  unsigned depth = 0, line = 1, column = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    } else if (c == '/' && text.substr(i, 2) == "//") {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (c == '"') {
      // Skip the string, escapes included; an unterminated one ends at the
      // newline, which the loop then counts.
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < text.size() && text[i] == '\n')
        --i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxInputNesting) {
        llvm::errs() << name << ":" << line << ":" << column
                     << ": error: input nested deeper than "
                     << kMaxInputNesting
                     << " levels of (), [], {} or <>; attnc refuses it "
                        "rather than overflow the parser's stack\n";
        return failure();
      }
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-') &&
                 text.substr(i, 2) != ">=")) &&
               depth > 0) {
      --depth;
    }
  }
  return success();
}

} // namespace mlir::attn

#endif // ATTNC_TOOLS_INPUTNESTING_H

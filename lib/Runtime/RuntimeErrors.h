//===- RuntimeErrors.h - the runtime's per-thread last error ----*- C++ -*-===//
//
// attnc_last_error()'s storage, shared by the files of libAttncRuntime.
//
//===----------------------------------------------------------------------===//

#ifndef ATTNC_LIB_RUNTIME_RUNTIMEERRORS_H
#define ATTNC_LIB_RUNTIME_RUNTIMEERRORS_H

#include "attnc/Runtime/Runtime.h"

#include <string>

namespace attnc::rt {

/// Records `message` as this thread's last error and returns `status`.
attnc_status failWith(attnc_status status, std::string message);

/// ATTNC_ERROR_INVALID_ARGUMENT with "<call>: <message>".
attnc_status invalid(const char *call, const std::string &message);

/// Every entry point starts here, so a success leaves "" behind.
void clearError();

/// This thread's last error.
const char *lastErrorMessage();

} // namespace attnc::rt

#endif // ATTNC_LIB_RUNTIME_RUNTIMEERRORS_H

"""The exceptions of the attnc package.

Every message starts with the call that failed, once (``attnc.attention: ...``
or ``attnc_kernel_load: ...``), then names the offending value.
"""


class AttncError(RuntimeError):
    """A failure of the attnc runtime, compiler or kernel cache.

    ``call`` is the failed call (a C function such as ``attnc_kernel_load``,
    or ``attnc-compile``); ``detail`` is the message without that prefix.
    """

    def __init__(self, call, detail):
        self.call = call
        self.detail = strip_call(call, detail)
        super().__init__(f"{call}: {self.detail}")


def strip_call(call, message):
    """`message` without any leading ``"<call>: "`` prefixes.

    The runtime's messages often start with the name of the C function already;
    the exception adds it exactly once.
    """
    prefix = call + ": "
    while message.startswith(prefix):
        message = message[len(prefix):]
    return message


def argument_error(call, message, kind=ValueError):
    """A ValueError (or `kind`) whose message names `call` once."""
    return kind(f"{call}: {strip_call(call, message)}")

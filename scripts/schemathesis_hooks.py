"""Schemathesis hooks for scripts/api-contract.sh.

The document asks a client for a new Idempotency-Key per request; the same key with another request is answered
422 by design, which no schema can express. So every well-formed key a generated request carries is made unique to
that request, as a client does; a malformed key, and every request meant to be refused (negative mode), is sent
as generated: changing those would make Schemathesis take the request for a valid one.
"""
import re
import uuid

import schemathesis

KEY = "Idempotency-Key"
WELL_FORMED = re.compile(r"^[!-~]{1,255}$")


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.meta is not None and case.meta.generation.mode.is_negative:
        return
    headers = case.headers or {}
    value = headers.get(KEY)
    if isinstance(value, str) and WELL_FORMED.match(value):
        headers[KEY] = str(uuid.uuid4())

"""Schemathesis hooks for scripts/api-contract.sh: the rules no schema can express, kept as a client keeps them.

A statement's period ends after it starts (`to` after `from`, else 400): a valid request's two instants are put in
order. The document asks a client for a new Idempotency-Key per request; the same key with another request is answered
422 by design. So every well-formed key a generated request carries is made unique to
that request, as a client does; a malformed key, and every request meant to be refused (negative mode), is sent
as generated: changing those would make Schemathesis take the request for a valid one.
"""
import re
import uuid
from datetime import datetime

import schemathesis

KEY = "Idempotency-Key"
WELL_FORMED = re.compile(r"^[!-~]{1,255}$")


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.meta is not None and case.meta.generation.mode.is_negative:
        return
    query = case.query or {}
    if case.path == "/v1/statement" and isinstance(query.get("from"), str) and isinstance(query.get("to"), str):
        if not ordered(query["from"], query["to"]):
            query["from"], query["to"] = "2000-01-01T00:00:00Z", "2000-01-02T00:00:00Z"
    headers = case.headers or {}
    value = headers.get(KEY)
    if isinstance(value, str) and WELL_FORMED.match(value):
        headers[KEY] = str(uuid.uuid4())


def ordered(start, end):
    """Whether `start` is before `end`; instants Python cannot read are left as generated."""
    try:
        return datetime.fromisoformat(start.replace("Z", "+00:00")) < datetime.fromisoformat(end.replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return True

"""The OpenAPI document says what the service answers: every refusal an operation may give,
each with the service's {error, message} body (ErrorBody), never the framework's own shapes.

Each route names its own refusals (`refusals`); `declare_common` adds what every operation
may answer whatever it is (a Host this server does not answer to, a failure of the server),
what every operation that takes a body may answer (a body that is not JSON, one too large),
and gives the 422 that FastAPI declares by itself our body instead of its HTTPValidationError.
tests/server/test_openapi.py holds the service to it with schemathesis.
"""

from __future__ import annotations

from typing import Any

from .protocol import ErrorBody

ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
# What FastAPI declares for its own request checks, replaced by ErrorBody.
FRAMEWORK_SCHEMAS = ("HTTPValidationError", "ValidationError")
EVERY_OPERATION = {
    "400": "bad_host: the Host header names no host this server answers to (DNS rebinding); "
           "bad_request: the body is not JSON this service can read",
    "500": "internal: the server failed on this request; it is logged, and nothing was changed",
}
WITH_A_BODY = {"413": "too_large: the request body is longer than the service reads, however it "
                      "is sent (Content-Length or chunked)"}
INVALID = ("bad_request: the request does not have the shape this document gives; the message "
           "names each field that is wrong and what it allows")


def refusals(described: dict[int, str]) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for the refusals an endpoint may answer, each status with its
    words and the service's {error, message} body."""
    return {status: {"model": ErrorBody, "description": words} for status, words in described.items()}


def declare_common(document: dict[str, Any]) -> dict[str, Any]:
    """`document` (FastAPI's) with the refusals common to every operation, in place."""
    for path in document.get("paths", {}).values():
        for operation in path.values():
            responses = operation.setdefault("responses", {})
            common = {**EVERY_OPERATION, **(WITH_A_BODY if "requestBody" in operation else {})}
            for status, words in common.items():
                responses.setdefault(status, {"description": words, "content": ERROR_BODY})
            if responses.get("422", {}).get("description") == "Validation Error":  # FastAPI's own
                responses["422"] = {"description": INVALID, "content": ERROR_BODY}
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name in FRAMEWORK_SCHEMAS:
        schemas.pop(name, None)
    schemas.setdefault("ErrorBody", ErrorBody.model_json_schema())
    return document

"""One error type for every refusal, so every `/api/` failure has the same JSON shape."""

from __future__ import annotations


class ApiError(Exception):
    """A refusal a client is meant to read: rendered as `{"error": message}` with `status`."""

    def __init__(self, status: int, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

    def body(self) -> dict[str, str]:
        return {"error": self.message}


NOT_FOUND_MESSAGE = "Nothing here — check the link you were given."


def not_found(message: str = NOT_FOUND_MESSAGE) -> ApiError:
    """The one 404: unknown, missing, wrong-tool and deleted credentials all look alike."""
    return ApiError(404, message)


def bad_request(message: str) -> ApiError:
    return ApiError(400, message)


def conflict(message: str) -> ApiError:
    return ApiError(409, message)

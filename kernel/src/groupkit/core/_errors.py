"""One error type for every refusal, so every `/api/` failure has the same JSON shape."""

from __future__ import annotations

from groupkit.core._i18n import N_


class ApiError(Exception):
    """A refusal a client is meant to read: rendered as `{"error": message}` with `status`.

    `field` names the request field the message is about, for a page to show it next to
    that field; it is sent as an extra `field` member only where an operation documents it
    (the organiser's edit), so every other body stays exactly the spec's `{"error": ...}`.
    `confirm` marks a refusal the organiser may override by sending `"confirm": true`.
    `errors` lists every failing field of a create body, (field, message) in check order,
    the first being this error; sent only to a client that asks (`ALL_ERRORS_HEADER`)."""

    def __init__(self, status: int, message: str,
                 headers: dict[str, str] | None = None, *, field: str | None = None,
                 confirm: bool = False, errors: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.field = field
        self.confirm = confirm
        self.errors = errors

    def body(self) -> dict[str, object]:
        body: dict[str, object] = {"error": self.message}
        if self.field:
            body["field"] = self.field
        if self.confirm:
            body["confirm"] = True
        return body


#: A request header with which a page asks a create's 400 for every failing field: the body
#: then adds `field` and `errors` ([{field, error}] in check order) to the spec's `error`.
ALL_ERRORS_HEADER = "X-Groupkit-Errors"


NOT_FOUND_MESSAGE = N_("Nothing here — check the link you were given.")


def not_found(message: str = NOT_FOUND_MESSAGE) -> ApiError:
    """The one 404: unknown, missing, wrong-tool and deleted credentials all look alike."""
    return ApiError(404, message)


def bad_request(message: str, field: str | None = None) -> ApiError:
    """A 400 with the spec's `message`; `field` names the form field a page shows it at."""
    return ApiError(400, message, field=field)


def conflict(message: str, field: str | None = None, *, confirm: bool = False) -> ApiError:
    """A 409; `confirm=True` when the organiser may go ahead by resending with
    `"confirm": true` (a redraw, or an edit that frees the claims it takes away, say)."""
    return ApiError(409, message, field=field, confirm=confirm)


def checked_in_order(*steps: str | tuple[str, str], then: str = "") -> str:
    """An `errors=` text for one status: the refusals in the order the operation tests them,
    so a client knows which message wins when a body breaks several rules at once.

    Each step is `(condition, message)`, written "condition: `message`", or a condition alone
    (a check whose message the document gives elsewhere); `then` ends it with one sentence."""
    parts = [step if isinstance(step, str) else f"{step[0]}: `{step[1]}`" for step in steps]
    return "Checked in this order: " + "; ".join(parts) + (f". {then}" if then else "")

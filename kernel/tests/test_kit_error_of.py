"""The kit's `error_of`: an error answer's message, with its status and shape checked."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import error_of


async def test_error_of_reads_a_real_answer(client: Any) -> None:
    response = await client.get("/api/demo/no-such-slug-here")
    assert await error_of(response, 404) == "Nothing here — check the link you were given."


class Answer:
    def __init__(self, status: int, body: Any, content_type: str = "application/json") -> None:
        self.status_code, self.body, self.content_type = status, body, content_type

    async def get_json(self) -> Any:
        return self.body


async def test_error_of_checks_status_type_and_body() -> None:
    assert await error_of(Answer(409, {"error": "Full."}), 409) == "Full."
    assert await error_of(Answer(400, {"error": "Bad.", "field": "name"}), 400,
                          field="name") == "Bad."
    for answer, status in [(Answer(409, {"error": "Full."}), 400),
                           (Answer(400, {"error": "Bad.", "field": "name"}), 400),
                           (Answer(400, {"error": "Bad.", "extra": 1}), 400),
                           (Answer(400, {"error": "Bad."}, "text/html"), 400)]:
        with pytest.raises(AssertionError):
            await error_of(answer, status)

"""schemathesis against the generated OpenAPI document, every operation of every installed
tool, against a running server: no 5xx, every status documented, every response of the
documented content type and schema (so every error is a JSON `{"error"}`), and undocumented
methods answered 405 with an Allow header.

The bounded profile runs in the test suite; `nox -s fuzz` runs a longer one
($GROUPKIT_FUZZ_EXAMPLES examples per operation). The case count is printed and written to
artifacts/schemathesis-report.json. Event streams never end, so they are left out (they are
covered by tests/test_live.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.server

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_schema_conformance,unsupported_method,allow_header_conformance")


def test_every_operation_conforms_to_the_document(live_server: Callable[..., Any],
                                                  tmp_path: Path) -> None:
    server = live_server(workers=2, limits={"post_per_hour": 10_000_000})
    # 8 in the test run: most cases come from the coverage phase, whatever the count (8,748
    # cases at 4, 9,660 at 8, for 58 and 75 CPU-seconds); the fuzzing phase gets twice the
    # bodies of 4 per operation.
    examples = os.environ.get("GROUPKIT_FUZZ_EXAMPLES", "8")
    report = tmp_path / "report.json"
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", server.url("/openapi.json"),
        "--checks", CHECKS, "--exclude-path-regex", "/events$",
        "--max-examples", examples, "--phases", "examples,coverage,fuzzing",
        "--request-timeout", "20", "--no-shrink", "--generation-database", "none",
        "--seed", "20261122", "--workers", "2", "--no-color",
        "--report", "json", "--report-json-path", str(report)]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                            timeout=3000)
    output = result.stdout + result.stderr
    (ARTIFACTS / "schemathesis-output.txt").parent.mkdir(exist_ok=True)
    (ARTIFACTS / "schemathesis-output.txt").write_text(output)
    assert result.returncode == 0, output[-6000:]
    cases = re.search(r"(\d+) generated", output)
    operations = re.search(r"Tested: (\d+)", output)
    assert cases and operations, output[-3000:]
    documented = sum(len(item) for path, item in server_client_json(server)["paths"].items()
                     if not path.endswith("/events"))
    assert int(operations.group(1)) == documented
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "schemathesis-report.json").write_text(json.dumps(
        {"operations": int(operations.group(1)), "cases": int(cases.group(1)),
         "examples_per_operation": int(examples)}, indent=2))
    print(f"\nschemathesis: {operations.group(1)} operations, {cases.group(1)} cases, "
          "no failures")


def server_client_json(server: Any) -> dict[str, Any]:
    with server.client() as client:
        document: dict[str, Any] = client.get("/openapi.json").json()
    return document

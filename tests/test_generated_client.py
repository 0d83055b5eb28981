"""A standard client generator takes the whole document: openapi-python-client, run offline
on the document a live server serves, writes every operation (no endpoint skipped, no
warning), the code it writes is valid Python, and the generated client creates a Bring a
Plate, claims a spot and reads the board from a real server.

The generator runs once for the module, without its post hooks: ruff, which it runs after
writing when installed, quietly repairs some code the generator got wrong, so here the code
it wrote must stand on its own (as it does for anyone without ruff)."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.server

PACKAGE = "groupkit_client"
CONFIG = f"package_name_override: {PACKAGE}\npost_hooks: []\n"
BOARD = {"title": "Generated lunch", "categories": [{"name": "Mains", "capacity": 2}]}


@dataclass
class Generated:
    document: dict[str, Any]
    returncode: int
    output: str
    package: Path


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    return live_server(limits={"post_per_hour": 1_000_000})


@pytest.fixture(scope="module")
def generated(server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    document = httpx.get(server.url("/openapi.json")).raise_for_status().json()
    work = tmp_path_factory.mktemp("generated")
    (work / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    (work / "config.yaml").write_text(CONFIG, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", "openapi.json",
         "--config", "config.yaml", "--meta", "none", "--output-path", PACKAGE],
        cwd=work, capture_output=True, text=True, timeout=300)
    yield Generated(document, result.returncode, result.stdout + result.stderr, work / PACKAGE)
    for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
        del sys.modules[name]


def module_name(operation_id: str) -> str:
    """The module the generator writes an operation to: its id in snake case."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", operation_id).lower()


def test_every_operation_is_generated_without_a_warning(generated: Generated) -> None:
    assert generated.returncode == 0, generated.output
    assert "warning" not in generated.output.lower(), generated.output
    documented = {(operation["tags"][0], module_name(operation["operationId"]))
                  for item in generated.document["paths"].values()
                  for operation in item.values()}
    written = {(path.parent.name, path.stem)
               for path in (generated.package / "api").glob("*/*.py")
               if path.stem != "__init__"}
    assert len(documented) == sum(len(item) for item in generated.document["paths"].values())
    assert written == documented


def test_the_generated_code_is_valid_python(generated: Generated) -> None:
    sources = sorted(generated.package.rglob("*.py"))
    assert sources
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        broken = []
        for path in sources:
            try:
                compile(path.read_text(encoding="utf-8"), str(path), "exec")
            except (SyntaxError, Warning) as error:
                broken.append(f"{path.relative_to(generated.package)}: {error}")
    assert not broken, "\n".join(broken)


def generated_module(generated: Generated, name: str) -> ModuleType:
    """A module of the generated package, imported with every warning an error (an invalid
    literal is only a SyntaxWarning to Python 3.11)."""
    if str(generated.package.parent) not in sys.path:
        sys.path.insert(0, str(generated.package.parent))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return importlib.import_module(f"{PACKAGE}.{name}")


def test_the_generated_client_creates_claims_and_reads_a_board(generated: Generated,
                                                               server: Any) -> None:
    client_module = generated_module(generated, "client")
    models = generated_module(generated, "models")
    create = generated_module(generated, "api.plate.plate_create")
    claim = generated_module(generated, "api.plate.plate_claim")
    read = generated_module(generated, "api.plate.plate_read")
    with client_module.Client(base_url=server.base_url,
                              raise_on_unexpected_status=True) as client:
        created = create.sync(client=client, body=models.PlateCreateBody.from_dict(BOARD))
        assert isinstance(created, models.Created) and len(created.edit_token) == 26
        claimed = claim.sync(client=client, body=models.PlateClaimBody(
            slug=created.slug, slot_id="c0-1", name="Ana", dish="Lasagne"))
        assert isinstance(claimed, models.PlateClaimResponse201)
        assert len(claimed.secret) == 16
        board = read.sync(created.slug, client=client)
    assert isinstance(board, models.PlateReadResponse200)
    assert board.title == "Generated lunch"
    [mains] = board.categories
    assert (mains.name, mains.capacity, mains.taken) == ("Mains", 2, 1)
    assert [(spot.slot_id, spot.taken, spot.name, spot.dish) for spot in mains.spots] == [
        ("c0-1", True, "Ana", "Lasagne"), ("c0-2", False, None, None)]

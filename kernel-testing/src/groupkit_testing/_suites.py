"""The kit's suites: the checks every tool must pass, for any plugin author to run over their
own tool with one class in a test module:

    from groupkit_testing import ToolSuites

    class TestKaraokeSuites(ToolSuites):
        tools = ("karaoke",)

`ContractSuite` (in-process, on the test's database), `HostileInputSuite` and `PrivacySuite`
(each on a real server from `live_server`) may also be used one by one. `tools` names
installed tools (entry points); empty means every installed tool. `scenarios` maps a tool to
its participation where the tool declares no `Walkthrough`.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import ClassVar

import httpx
import peewee as pw
import pytest

from groupkit.blocks._slots import SlotClaim
from groupkit.core._credentials import ALPHABET
from groupkit.core._i18n import COOKIE
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.ops._plugins import ENTRY_POINT_GROUP
from groupkit_testing import _hostile as hostile
from groupkit_testing._participation import Session
from groupkit_testing._privacy import Look
from groupkit_testing._privacy import api_document
from groupkit_testing._privacy import installed_tools
from groupkit_testing._privacy import scan_declared
from groupkit_testing._privacy import walkthrough_of

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
#: Well-formed credentials that were never issued.
UNKNOWN = {"slug": "nobody-home-" + "a" * 14, "editToken": "b" * 26, "token": "c" * 22}

Scenario = Callable[[Session], None]


class KitSuite:
    """What the kit's suites share: which tools they run over and how each takes part."""

    #: Installed tools to check; empty: every installed tool.
    tools: ClassVar[Sequence[str]] = ()
    #: tool -> its participation, for tools that declare no `Walkthrough`.
    scenarios: ClassVar[Mapping[str, Scenario]] = {}

    @classmethod
    def suite_tools(cls) -> list[str]:
        """The tools this suite runs over (each test is parametrized by `kit_tool`)."""
        installed = installed_tools()
        missing = [name for name in cls.tools if name not in installed]
        if missing:
            raise pytest.UsageError(
                f"{cls.__name__}.tools names {missing}, which are not installed (or not "
                f"valid: see `groupkit tools`); installed: {sorted(installed)}")
        return list(cls.tools) or sorted(installed)

    @classmethod
    def scenario(cls, tool: str) -> Scenario | None:
        """`scenarios[tool]`, else the tool's `Walkthrough.take_part`, else None."""
        return cls.scenarios.get(tool) or walkthrough_of(tool)


def parametrize_suites(metafunc: pytest.Metafunc) -> None:
    """`pytest_generate_tests` of the kit: a suite's tests run once per tool (`kit_tool`),
    or once per case of a suite that has cases (`kit_case`, from its `suite_cases()`)."""
    cls = metafunc.cls
    if cls is not None and issubclass(cls, KitSuite) and "kit_tool" in metafunc.fixturenames:
        metafunc.parametrize("kit_tool", cls.suite_tools())
    if cls is not None and "kit_language" in metafunc.fixturenames:
        metafunc.parametrize("kit_language", getattr(cls, "languages", ("en",)))
    cases = getattr(cls, "suite_cases", None)
    if cases is not None and "kit_case" in metafunc.fixturenames:
        metafunc.parametrize("kit_case", cases(), ids=str)


def _expected_version(tool: str) -> str | None:
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(entry_point, "dist", None)
        if entry_point.name == tool and dist is not None:
            return str(dist.version)
    return None


# --- the contract ------------------------------------------------------------------------------

def speaking(client: Any, language: str) -> Any:
    """`client` (an app's test client) asking for `language` on every request, as a reader
    who chose it does: its `Accept-Language` and the language cookie."""
    if language == "en":
        return client
    opened = client.open

    async def open_in(*args: Any, headers: Mapping[str, str] | None = None,
                      **kwargs: Any) -> Any:
        asked = {"Accept-Language": language, "Cookie": f"{COOKIE}={language}",
                 **(headers or {})}
        return await opened(*args, headers=asked, **kwargs)

    client.open = open_in
    return client


class ContractSuite(KitSuite):
    """What every tool must do, in-process on the test's database (SQLite, or PostgreSQL
    with $GROUPKIT_TEST_POSTGRES_URL): its declaration holds together, its OpenAPI example
    creates (201) an instance whose links open their pages with the kernel's headers and
    whose public side never shows the edit link, every bad link of every operation answers
    the same 404, and a delete removes every row (then every link is that 404). It runs
    once per language of `languages`, the client asking for it: the API's answers are the
    specification's English whatever it asks for, while its pages speak it."""

    #: The languages the client asks for (each a run of the suite's requests).
    languages: ClassVar[Sequence[str]] = ("en",)

    def test_declaration(self, kit_tool: str) -> None:
        tool = installed_tools()[kit_tool]
        assert tool.example, f"{kit_tool}: declare `example`, a valid create body"
        assert tool.summary and tool.title, f"{kit_tool}: declare `title` and `summary`"
        assert tool.version == _expected_version(kit_tool), (
            f"{kit_tool}: Tool.version {tool.version!r} is not its distribution's version")
        assert all(isinstance(k, str) and isinstance(v, int) for k, v in tool.limits.items())
        for model in tool.models:
            field = model._meta.fields.get("instance")
            assert isinstance(field, pw.ForeignKeyField) and field.on_delete == "CASCADE", (
                f"{kit_tool}: {model.__name__} needs `instance = ForeignKeyField(Instance, "
                f"on_delete=\"CASCADE\")`")

    async def test_lifecycle(self, kit_tool: str, kit_language: str,
                             make_app: Callable[..., Any]) -> None:
        tool = installed_tools()[kit_tool]
        client = speaking(make_app(tools=[kit_tool]).test_client(), kit_language)
        response = await client.post(f"/api/{kit_tool}", json=dict(tool.example))
        made = await response.get_json()
        assert response.status_code == 201, f"{kit_tool}: the example answered {made}"
        slug, edit = made["slug"], made["editToken"]
        assert len(edit) == 26 and set(edit) <= set(ALPHABET)
        assert len(slug.rsplit("-", 1)[1]) == 14

        read = await client.get(f"/api/{kit_tool}/{slug}")
        assert read.status_code == 200 and isinstance(await read.get_json(), dict)
        assert edit not in await read.get_data(as_text=True)
        for path in (f"/s/{slug}", f"/e/{edit}", f"/new/{kit_tool}"):
            page = await client.get(path)
            assert page.status_code == 200, path
            assert f'<html lang="{kit_language}"' in await page.get_data(as_text=True), path
            assert page.headers["Referrer-Policy"] == "same-origin", path
            if not path.startswith("/new/"):
                capability_headers(page.headers, private=path.startswith("/e/"), what=path)
            if path.startswith("/s/"):
                assert edit not in await page.get_data(as_text=True), "edit link on /s/"
        assert (await client.post(f"/api/{kit_tool}/{edit}/export")).status_code == 200

        base = f"/api/{kit_tool}"
        paths = (await (await client.get("/openapi.json")).get_json())["paths"]
        for path in (base, f"{base}/{{slug}}", f"{base}/{{editToken}}/delete",
                     f"{base}/{{editToken}}/export"):
            assert path in paths, f"{path} is not in the OpenAPI document"

        instance_id = Instance.get(Instance.slug == slug).id
        assert (await client.post(f"{base}/{edit}/delete")).status_code == 200
        models: list[Any] = [*tool.models, Credential, SlotClaim]
        for model in models:
            assert model.select().where(model.instance == instance_id).count() == 0, (
                f"{kit_tool}: {model.__name__} rows outlived the delete")
        public_404 = {"error": tool.not_found} if tool.not_found else NOT_FOUND
        assert await (await client.get(f"{base}/{slug}")).get_json() == public_404
        assert await (await client.post(f"{base}/{edit}/export")).get_json() == NOT_FOUND
        for path in (f"/s/{slug}", f"/e/{edit}"):
            assert (await client.get(path)).status_code == 404

    async def test_every_bad_link_is_the_same_404(self, kit_tool: str, kit_language: str,
                                                  make_app: Callable[..., Any]) -> None:
        """Each operation given an unknown link, a malformed one and a deleted instance's:
        one 404 body per operation, the kernel's (or the one the tool declares for it)."""
        tool = installed_tools()[kit_tool]
        client = speaking(make_app(tools=[kit_tool]).test_client(), kit_language)
        gone = await (await client.post(f"/api/{kit_tool}", json=dict(tool.example))).get_json()
        assert (await client.post(f"/api/{kit_tool}/{gone['editToken']}/delete")
                ).status_code == 200
        links = {"unknown": UNKNOWN, "malformed": {"slug": "x", "editToken": "x", "token": "x"},
                 "deleted": {**UNKNOWN, "slug": gone["slug"], "editToken": gone["editToken"]}}
        problems, checked = [], 0
        for template, operations in api_document()["paths"].items():
            if template.split("/")[2:3] != [kit_tool] or template.endswith("/events"):
                continue
            needs = [name for name in UNKNOWN if f"{{{name}}}" in template]
            for method, operation in operations.items():
                public_body = "slug" in json.dumps(operation.get("requestBody", {}))
                if method not in ("get", "post") or not (needs or public_body):
                    continue
                answers, checked = set(), checked + 1
                for kind, values in links.items():
                    path = template.format_map(hostile.Blanks(values))
                    body = {"slug": values["slug"]} if public_body else {}
                    response = await client.open(path, method=method.upper(), json=body)
                    text = await response.get_data(as_text=True)
                    if response.status_code != 404:
                        problems.append(f"{method.upper()} {template} ({kind} link) answered "
                                        f"{response.status_code} {text[:80]}")
                    answers.add(text)
                if len(answers) > 1:
                    problems.append(f"{method.upper()} {template}: bad links answered "
                                    f"differently: {sorted(answers)}")
        assert not problems, f"{kit_tool}: " + "; ".join(problems)
        assert checked > 0  # the public read at least


def capability_headers(headers: Mapping[str, str], *, private: bool, what: str) -> None:
    """Assert the kernel's headers on a capability page: same-origin referrer, noindex, a
    script policy without 'unsafe-inline', and no-store where the page is private."""
    lower = {key.lower(): value for key, value in headers.items()}
    assert lower.get("referrer-policy") == "same-origin", what
    assert "noindex" in lower.get("x-robots-tag", "").lower(), what
    directives = {part.split()[0].lower(): part.split()[1:]
                  for part in lower.get("content-security-policy", "").split(";")
                  if part.split()}
    script = directives.get("script-src", directives.get("default-src"))
    assert script and "'unsafe-inline'" not in script, (what, script)
    if private:
        assert "no-store" in lower.get("cache-control", "").lower(), what


# --- hostile input -----------------------------------------------------------------------------

class HostileInputSuite(KitSuite):
    """Hostile request bodies against every operation of the tool in the OpenAPI document, on
    a real server: bodies above the limit (declared, chunked, 10 MB) are a JSON 413 and change
    nothing; JSON nested 100,000 deep reads like `{}`; every field given every wrong JSON
    type, awkward Unicode, 5,000-digit numbers or 10 MB strings answers 200/201/400/404/409,
    never a 5xx, every refusal one JSON `{"error"}`; junk path segments are the usual 404;
    invisible-only text is treated as empty. Each operation starts from a body that works
    (the tool's participation, in plain words) with one field replaced at a time."""

    #: Tools whose bodies must hold at least one required text (compared with empty text).
    text_required: ClassVar[Sequence[str]] = ()

    @pytest.fixture(scope="class")
    @classmethod
    def hostile_client(cls, live_server: Callable[..., Any]) -> Iterator[httpx.Client]:
        """A client of a server with the default body limit and no reachable POST limit."""
        server = live_server(limits={"post_per_hour": 10_000_000})
        with server.client(timeout=120.0, limits=hostile.KEEP_ALIVE) as client:
            yield client

    @pytest.fixture(scope="class")
    @classmethod
    def hostile_places(cls, hostile_client: httpx.Client) -> dict[str, hostile.Place]:
        """One instance per tool, its participation done."""
        return hostile.build_places(hostile_client, cls.suite_tools(), cls.scenario)

    @pytest.fixture(scope="class")
    @classmethod
    def roomy_places(cls, live_server: Callable[..., Any]
                     ) -> Iterator[tuple[httpx.Client, dict[str, hostile.Place]]]:
        """A server whose body limit takes a 10 MB string, with its own instances."""
        server = live_server(limits={"post_per_hour": 10_000_000,
                                     "max_body_bytes": hostile.TEN_MB + 65536})
        with server.client(timeout=300.0, limits=hostile.KEEP_ALIVE) as client:
            yield client, hostile.build_places(client, cls.suite_tools(), cls.scenario)

    def test_oversized_bodies_are_413(self, kit_tool: str, hostile_client: httpx.Client,
                                      hostile_places: dict[str, hostile.Place]) -> None:
        client, place = hostile_client, hostile_places[kit_tool]
        findings = hostile.Findings()
        padding = "x" * (hostile.BODY_LIMIT + 1)
        ten_mb = "y" * hostile.TEN_MB
        for endpoint in hostile.tool_endpoints(kit_tool):
            field = (endpoint.fields or ("pad",))[0]
            for label, make in (
                    ("declared length", lambda e=endpoint, f=field: hostile.send(
                        client, e.method, place.path(e, client), {f: padding})),
                    ("chunked", lambda e=endpoint, f=field: client.request(
                        e.method, place.path(e, client), content=hostile.chunks({f: padding}),
                        headers={"Content-Type": "application/json"})),
                    ("10 MB string", lambda e=endpoint, f=field: hostile.send(
                        client, e.method, place.path(e, client),
                        {**place.base(e), f: ten_mb}))):
                response = hostile.refused_upload(make)
                if response is None:
                    findings.items.append(
                        f"{endpoint.name} ({label}): the connection closed without an "
                        f"answer {hostile.UPLOAD_TRIES} times in a row")
                    continue
                findings.judge(f"{endpoint.name} ({label})", response, {413})
        # Nothing was deleted by a refused body.
        assert client.get(f"/api/{kit_tool}/{place.session.slug}").status_code == 200
        assert findings.items == [], findings.report(kit_tool, "oversized bodies")

    def test_deep_nesting_reads_as_an_empty_object(
            self, kit_tool: str, hostile_client: httpx.Client,
            hostile_places: dict[str, hostile.Place]) -> None:
        client, place = hostile_client, hostile_places[kit_tool]
        findings = hostile.Findings()
        for endpoint in hostile.tool_endpoints(kit_tool):
            for label, raw in hostile.DEEP_BODIES.items():
                inside = b'{"' + (endpoint.fields or ("x",))[0].encode() + b'":' + raw + b"}"
                for shape, body in ((label, raw), (f"{label} inside a field", inside)):
                    path = place.path(endpoint, client)
                    response = hostile.send(client, endpoint.method, path, raw=body)
                    findings.judge(f"{endpoint.name} ({shape})", response)
                    if endpoint.has_body and not endpoint.is_delete:
                        empty = hostile.send(client, endpoint.method, path, {})
                        if empty.status_code != response.status_code:
                            findings.items.append(
                                f"{endpoint.name} ({shape}): answered {response.status_code}"
                                f", an empty object {empty.status_code}")
        assert findings.items == [], findings.report(kit_tool, "deep nesting")

    def test_wrong_types_in_every_field(self, kit_tool: str, hostile_client: httpx.Client,
                                        hostile_places: dict[str, hostile.Place]) -> None:
        client, place = hostile_client, hostile_places[kit_tool]
        findings = hostile.Findings()
        for endpoint in hostile.tool_endpoints(kit_tool):
            base = place.base(endpoint)
            for body in hostile.NON_OBJECTS:
                response = hostile.send(client, endpoint.method, place.path(endpoint, client),
                                        body)
                findings.judge(f"{endpoint.name} body {json.dumps(body)}", response)
            for field in dict.fromkeys([*endpoint.fields, *base]):
                for label, value in hostile.WRONG_TYPES.items():
                    response = hostile.send(client, endpoint.method,
                                            place.path(endpoint, client), {**base, field: value})
                    findings.judge(f"{endpoint.name} {field}={label}", response)
        assert findings.items == [], findings.report(kit_tool, "wrong types")

    @pytest.mark.parametrize("case", sorted(hostile.UNICODE))
    def test_awkward_unicode_in_every_field(self, kit_tool: str, case: str,
                                            hostile_client: httpx.Client,
                                            hostile_places: dict[str, hostile.Place]) -> None:
        client, place = hostile_client, hostile_places[kit_tool]
        findings, text = hostile.Findings(), hostile.UNICODE[case]
        for endpoint in hostile.tool_endpoints(kit_tool):
            base = place.base(endpoint)
            for field in dict.fromkeys([*endpoint.fields, *base]):
                original = base.get(field)
                value = [text, text + "2"] if isinstance(original, list) and original and \
                    isinstance(original[0], str) else text
                response = hostile.send(client, endpoint.method, place.path(endpoint, client),
                                        {**base, field: value})
                findings.judge(f"{endpoint.name} {field}", response)
        assert findings.items == [], findings.report(kit_tool, f"{case} text")

    def test_hostile_path_segments(self, kit_tool: str, hostile_client: httpx.Client,
                                   hostile_places: dict[str, hostile.Place]) -> None:
        """Every placeholder of every path given junk: the usual 404 (or 400), as JSON,
        never a 5xx and never an echoed header."""
        client, place = hostile_client, hostile_places[kit_tool]
        findings = hostile.Findings()
        for endpoint in hostile.endpoints(kit_tool):
            if endpoint.is_create or endpoint.is_delete:
                continue
            for segment in hostile.HOSTILE_SEGMENTS:
                for name in dict.fromkeys(re.findall(r"\{(\w+)\}", endpoint.template)):
                    path = endpoint.template.format_map(hostile.Blanks({
                        "slug": place.session.slug, "editToken": place.session.edit,
                        "token": (place.session.tokens or [("", "x")])[0][1],
                        **place.session.params, name: segment}))
                    response = hostile.send(client, endpoint.method, path,
                                            place.base(endpoint))
                    findings.judge(f"{endpoint.method} {path[:90]}", response, {400, 404, 409})
                    if "x-injected" in response.headers:
                        findings.items.append(f"{path[:90]}: echoed a header")
        assert findings.items == [], findings.report(kit_tool, "path segments")

    def test_ten_megabyte_strings(self, kit_tool: str,
                                  roomy_places: tuple[httpx.Client, dict[str, hostile.Place]]
                                  ) -> None:
        client, places = roomy_places
        place, findings = places[kit_tool], hostile.Findings()
        huge = ("Ann Bo " * (hostile.TEN_MB // 7 + 1))[:hostile.TEN_MB]
        # Encoded once and put in place of a marker: encoding 10 MB for every field cost the
        # test more CPU than the server spent on the body.
        unlikely = "\0huge\0"  # no body holds it: it marks where the string goes
        marker, encoded = json.dumps(unlikely).encode(), json.dumps(huge).encode()
        for endpoint in hostile.tool_endpoints(kit_tool):
            base = place.base(endpoint)
            for field in dict.fromkeys([*endpoint.fields, *base]):
                body = json.dumps({**base, field: unlikely}).encode()
                assert body.count(marker) == 1
                response = hostile.send(client, endpoint.method, place.path(endpoint, client),
                                        raw=body.replace(marker, encoded))
                findings.judge(f"{endpoint.name} {field}", response)
        assert findings.items == [], findings.report(kit_tool, "10 MB strings")

    def test_five_thousand_digit_numbers_in_every_position(
            self, kit_tool: str, hostile_client: httpx.Client,
            hostile_places: dict[str, hostile.Place]) -> None:
        """A 5,000-digit number (as a string and as bare JSON) in every field and every
        value nested in a working body: the field's own message or a normal answer."""
        client, place = hostile_client, hostile_places[kit_tool]
        findings, tried = hostile.Findings(), 0
        for endpoint in hostile.tool_endpoints(kit_tool):
            for what, raw in hostile.huge_bodies(place.base(endpoint), endpoint.fields):
                tried += 1
                response = hostile.send(client, endpoint.method, place.path(endpoint, client),
                                        raw=raw)
                findings.judge(f"{endpoint.name} {what}", response)
        assert tried > 0
        assert findings.items == [], findings.report(kit_tool, "5,000-digit numbers")

    def test_invisible_only_text_is_empty_text(self, kit_tool: str,
                                               hostile_client: httpx.Client,
                                               hostile_places: dict[str, hostile.Place]
                                               ) -> None:
        """Wherever an empty string is refused, a string of only zero-width, joiner, BOM and
        bidi characters gets the same answer, message and all."""
        client, place = hostile_client, hostile_places[kit_tool]
        findings, compared = hostile.Findings(), 0
        for endpoint in hostile.tool_endpoints(kit_tool):
            if endpoint.is_delete:
                continue
            base = place.base(endpoint)
            for at in hostile.text_positions(base):
                path = place.path(endpoint, client)
                empty = hostile.send(client, endpoint.method, path,
                                     hostile.placed(base, at, ""))
                if empty.status_code < 400:
                    continue  # optional text: nothing to compare without changing state
                invisible = hostile.send(client, endpoint.method, path,
                                         hostile.placed(base, at, hostile.INVISIBLE_ONLY))
                compared += 1
                if (invisible.status_code, invisible.text) != (empty.status_code, empty.text):
                    findings.items.append(
                        f"{endpoint.name} {'.'.join(map(str, at))}: empty answered "
                        f"{empty.status_code} {empty.text[:80]}, invisible-only "
                        f"{invisible.status_code} {invisible.text[:80]}")
        assert findings.items == [], findings.report(kit_tool, "invisible-only text")
        if kit_tool in self.text_required:
            assert compared > 0, f"{kit_tool}: no required text was compared"


# --- privacy -----------------------------------------------------------------------------------

class PrivacySuite(KitSuite):
    """The tool's declared hidden values (`Tool.hidden`) stay where it says, on a real
    server: each gets a random marker, which must reach the places it is `shown_to` and
    appear nowhere else (public page, link preview, public JSON and reads, live stream,
    share sheet, server log, the places not named); edit links, participant links and claim
    secrets stay off the public side and other people's pages. A tool that declares nothing
    fails with what to declare."""

    #: The class a scan uses; a suite with more readers (a QR decoder) gives its own.
    look_class: ClassVar[type[Look]] = Look

    @pytest.fixture(scope="class")
    @classmethod
    def privacy_server(cls, live_server: Callable[..., Any]) -> Any:
        """The server the privacy scans read (no reachable POST limit)."""
        return live_server(limits={"post_per_hour": 1_000_000})

    def test_declared_hidden_values_stay_hidden(self, kit_tool: str,
                                                privacy_server: Any) -> None:
        with privacy_server.client(limits=hostile.KEEP_ALIVE) as client:
            look = self.look_class(client, kit_tool, self.scenario(kit_tool))
            scan_declared(look, privacy_server.log)
        assert not look.controls and not look.leaks, look.report()
        assert look.read_count > 0


class ToolSuites(ContractSuite, HostileInputSuite, PrivacySuite):
    """All of the kit's suites (contract, hostile input, privacy) over `tools`."""

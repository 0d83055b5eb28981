"""The plugin docs are checked against the code they describe (as Datasette's tests do for
its hooks): every public name, kit helper and template macro has a reference entry whose
signature matches the code; every `data-*` attribute the page scripts read, every template
block a plugin can override and every variable the kernel gives a plugin's templates is
documented, and nothing documented is gone; every documented item says in which plugin API
version it came (as pytest's hookspecs do with `versionadded`).

The plugin docs are docs/tutorial.md, the how-to guides (docs/how-to/) and the reference
(docs/reference/: one page per public module, plus templates.md and page-scripts.md). The
conventions they follow, so these tests can read them:
- A reference entry is a list item of a reference page that starts with a code span, under a
  heading that is one code span naming where the names live (the page's own title,
  `` # `groupkit.signups` ``, or a section's, `` ## `groupkit/_spots.html` ``); a heading of
  the same or a higher level that names nothing ends it, a lower one does not:
  `` - `slot_group(groups, slot_id, prefix)` *added in 1*: ... ``.
  Functions and classes with their own constructor give the whole parameter list as Python
  writes it (order, `*`, `**options`, defaults as literals, `...` for a default that is no
  literal, such as a function); constants, fixtures and classes built by a library's
  constructor (peewee models, marshmallow's `Schema`) give the bare name; methods are written
  `Class.method(...)` without `self`.
- Tables whose first column is a code span (the `Tool` fields, the operation options, the
  page script attributes, the template blocks and variables) have one row per item, each
  under a heading of its own title.
- Every entry, row and hook heading carries `*added in N*` (and `*changed in N: ...*` or
  `*removed in N: ...*` for later changes), N no newer than `PLUGIN_API_VERSION`.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import importlib
import inspect
import re
import sys
import tomllib
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from jinja2 import nodes

import groupkit
import groupkit_testing as kit
import groupkit_testing.allstates as allstates
from groupkit import hookspecs
from groupkit.core import _tool
from groupkit.ops import _plugins
from groupkit.web import _spot_rows as spot_rows

REPO = Path(__file__).resolve().parents[2]
#: The reference: one page per public module, the templates and the page script attributes.
REFERENCE = sorted((REPO / "docs" / "reference").glob("*.md"))
#: Every page about writing a tool: the tutorial, the how-to guides and the reference.
PLUGIN_PAGES = [REPO / "docs" / "tutorial.md", *sorted((REPO / "docs" / "how-to").glob("*.md")),
                *REFERENCE]
DOCS = "\n\n".join(page.read_text("utf-8") for page in PLUGIN_PAGES)
PACKAGE = Path(groupkit.__file__).parent
TEMPLATES = PACKAGE / "web" / "templates"
#: Templates parse as pages render them: with the i18n extension's `{% trans %}`.
PARSER = jinja2.Environment(extensions=["jinja2.ext.i18n"])
SCRIPTS = sorted((PACKAGE / "web" / "static").glob("*.js"))
#: The kernel's Python, in its layers, and the kit's (the page-state suite reads attributes).
PYTHON = sorted(PACKAGE.rglob("*.py"))
KIT_PYTHON = sorted(Path(kit.__file__).parent.rglob("*.py"))

#: The public modules besides `groupkit`, whose own public callables are their surface.
KIT_MODULES = {"groupkit_testing": kit, "groupkit_testing.allstates": allstates}
#: The public modules of the building blocks, each documented on a reference page of its own.
BLOCK_MODULES = {name: importlib.import_module(name)
                 for name in ("groupkit.signups", "groupkit.entries", "groupkit.integrations")}
PUBLIC_MODULES = {**BLOCK_MODULES, **KIT_MODULES}
#: Classes whose methods a plugin calls (or implements), each documented as an entry.
DOCUMENTED_METHODS = {"Operations": ("public", "organiser", "participant", "read"),
                      "Participation": ("public", "organiser", "participant", "read", "get",
                                        "text"),
                      "Tool": ("from_module", "hook")}
VERSION = re.compile(r"\*(added|changed|removed) in (\d+)\b[^*]*\*")
PAGES = ("create", "public", "organiser", "participant", "fields")


# --- reading the page -------------------------------------------------------------------

@dataclasses.dataclass
class Entry:
    namespace: str
    code: str
    text: str

    @property
    def name(self) -> str:
        return self.code.split("(", 1)[0].strip()

    @property
    def params(self) -> str | None:
        return self.code[len(self.name):].strip() or None


def reference_entries() -> list[Entry]:
    entries: list[Entry] = []
    for page in REFERENCE:
        namespace, level = "", 0
        current: Entry | None = None
        fenced = False
        for line in page.read_text("utf-8").splitlines():
            if line.startswith("```"):
                fenced, current = not fenced, None
                continue
            heading = None if fenced else re.match(r"(#+) (.*)", line)
            if heading:
                current = None
                named = re.fullmatch(r"`([\w./]+)`", heading.group(2).strip())
                if named:
                    namespace, level = named.group(1), len(heading.group(1))
                elif len(heading.group(1)) <= level:
                    namespace, level = "", 0
                continue
            item = not fenced and re.match(r"- `", line)
            if namespace and item:
                current = Entry(namespace, "", line[2:])
                entries.append(current)
            elif current is not None and line.startswith("  ") and line.strip():
                current.text += " " + line.strip()
            else:
                current = None
    for entry in entries:
        entry.code = re.match(r"`([^`]+)`", entry.text).group(1)  # type: ignore[union-attr]
        entry.code = re.sub(r"\s+", " ", entry.code)
    return entries


def table(title: str) -> list[list[str]]:
    """The rows of the first table after the heading `title` (header row left out)."""
    lines = DOCS.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(rf"#+ {title}", line))
    rows: list[list[str]] = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, title
    return rows[2:]


def first_code(cell: str) -> str:
    match = re.match(r"`([^`]+)`", cell)
    assert match, cell
    return match.group(1)


def versions(text: str) -> list[tuple[str, int]]:
    return [(match.group(1), int(match.group(2))) for match in VERSION.finditer(text)]


# --- signatures -------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    kind: str
    default: Any = inspect.Parameter.empty


class NoLiteral:
    """A default written `...`: a function, a factory of objects, anything but a literal."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoLiteral)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "..."


def literal(value: Any) -> Any:
    """`value` as the docs write it: itself if a literal reads back as it, else `...` (so is
    the running interpreter's path, which differs from machine to machine)."""
    if value == sys.executable:
        return NoLiteral()
    with contextlib.suppress(ValueError, SyntaxError):
        if ast.literal_eval(repr(value)) == value:
            return value
    return NoLiteral()


def documented_params(params: str) -> list[Param]:
    source = re.sub(r"\bclass=", "class_=", params)
    function = ast.parse(f"def f{source}: pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args

    def default(node: ast.expr | None) -> Any:
        if node is None:
            return inspect.Parameter.empty
        if isinstance(node, ast.Constant) and node.value is Ellipsis:
            return NoLiteral()
        return ast.literal_eval(node)

    found: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, value in zip(positional, defaults, strict=True):
        kind = "POSITIONAL_ONLY" if arg in args.posonlyargs else "POSITIONAL_OR_KEYWORD"
        found.append(Param(arg.arg, kind, default(value)))
    if args.vararg:
        found.append(Param(args.vararg.arg, "VAR_POSITIONAL"))
    for arg, value in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        found.append(Param(arg.arg, "KEYWORD_ONLY", default(value)))
    if args.kwarg:
        found.append(Param(args.kwarg.arg, "VAR_KEYWORD"))
    return [dataclasses.replace(p, name="class") if p.name == "class_" else p for p in found]


def code_params(obj: Any, owner: type | None = None) -> list[Param]:
    signature = inspect.signature(obj)
    fields = {f.name: f for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) \
        else {}
    found: list[Param] = []
    for parameter in signature.parameters.values():
        if owner is not None and parameter.name == "self":
            continue
        default = parameter.default
        if repr(default) == "<factory>":  # a dataclass field's default_factory
            default = fields[parameter.name].default_factory()  # type: ignore[misc]
        if default is not inspect.Parameter.empty:
            default = literal(default)
        found.append(Param(parameter.name, parameter.kind.name, default))
    return found


def constructed_here(obj: Any) -> bool:
    """Whether the docs owe `obj` a parameter list: a function of the kernel, or a class
    whose constructor the kernel wrote (not peewee's, marshmallow's, typing's or pluggy's)."""
    if inspect.isclass(obj):
        init = next((vars(klass)["__init__"] for klass in obj.__mro__
                     if "__init__" in vars(klass)), None)
        return getattr(init, "__module__", "").startswith("groupkit")
    if getattr(obj, "_fixture_function_marker", None) is not None or \
            type(obj).__name__ == "FixtureFunctionDefinition":
        return False
    function = inspect.unwrap(obj)  # a cached function (`functools.cache`) is one too
    return inspect.isfunction(function) and function.__module__.startswith("groupkit")


@functools.cache  # read for every entry at collection: parse each template once
def macros(template: str) -> dict[str, list[Param]]:
    tree = PARSER.parse((TEMPLATES / template).read_text("utf-8"))
    found: dict[str, list[Param]] = {}
    for macro in tree.find_all(nodes.Macro):
        defaults: list[nodes.Expr | None] = [None] * (len(macro.args) - len(macro.defaults))
        defaults += macro.defaults
        found[macro.name] = [
            Param(arg.name, "POSITIONAL_OR_KEYWORD",
                  inspect.Parameter.empty if value is None else literal(value.as_const()))
            for arg, value in zip(macro.args, defaults, strict=True)]
    # A macro drawn in Python (`{% set spot = groupkit_spot_rows.spot %}`, see
    # groupkit.web._spot_rows) is called as the function is: its parameters but the environment
    # Jinja passes and the `caller` of a call block.
    for assign in tree.body:
        if (isinstance(assign, nodes.Assign) and isinstance(assign.target, nodes.Name)
                and isinstance(assign.node, nodes.Getattr)
                and isinstance(assign.node.node, nodes.Name)
                and assign.node.node.name == "groupkit_spot_rows"):
            function = getattr(spot_rows.ROWS, assign.node.attr)
            found[assign.target.name] = [
                Param(name, "POSITIONAL_OR_KEYWORD", param.default)
                for name, param in inspect.signature(function).parameters.items()
                if name not in ("environment", "caller")]
    return found


def kit_names(module: Any = kit) -> list[str]:
    """A kit module's `__all__` (tested in test_public_api.py to be what it exports)."""
    return list(module.__all__)


def partials() -> list[str]:
    """Kernel templates of macros a plugin's templates import."""
    return sorted(f"groupkit/{path.name}" for path in (TEMPLATES / "groupkit").glob("_*.html")
                  if "{% macro" in path.read_text("utf-8"))


def resolve(entry: Entry) -> tuple[Any, list[Param] | None]:
    """The code an entry describes, and its parameters (None: it has no parameter list)."""
    if entry.namespace.endswith(".html"):
        return entry.name, macros(entry.namespace)[entry.name]
    module = PUBLIC_MODULES.get(entry.namespace, groupkit)
    owner_name, _, method = entry.name.rpartition(".")
    if owner_name:
        owner = getattr(module, owner_name)
        return getattr(owner, method), code_params(getattr(owner, method), owner=owner)
    obj = getattr(module, entry.name)
    return obj, code_params(obj) if constructed_here(obj) else None


@functools.cache
def required_entries() -> frozenset[tuple[str, str]]:
    required = {("groupkit", name) for name in groupkit.__all__}
    required |= {("groupkit", f"{owner}.{method}") for owner, methods in
                 DOCUMENTED_METHODS.items() for method in methods}
    required |= {(namespace, name) for namespace, module in PUBLIC_MODULES.items()
                 for name in kit_names(module)}
    required |= {(template, name) for template in partials() for name in macros(template)}
    return frozenset(required)


def test_the_page_is_read_as_intended() -> None:
    """The readers find the sections at all (a heading renamed would check nothing)."""
    names = {(entry.namespace, entry.name) for entry in reference_entries()}
    assert ("groupkit", "Tool") in names
    assert ("groupkit_testing", "make_app") in names
    assert ("groupkit.signups", "SignUp") in names
    assert ("groupkit/_forms.html", "action") in names
    assert documented_params("(a, b=1, *, c, **d)") == [
        Param("a", "POSITIONAL_OR_KEYWORD"), Param("b", "POSITIONAL_OR_KEYWORD", 1),
        Param("c", "KEYWORD_ONLY"), Param("d", "VAR_KEYWORD")]


def test_every_public_name_has_exactly_one_reference_entry() -> None:
    documented = [(entry.namespace, entry.name) for entry in reference_entries()]
    missing = sorted(required_entries() - set(documented))
    assert not missing, f"no reference entry in docs/reference/ for {missing}"
    repeated = sorted({item for item in documented if documented.count(item) > 1})
    assert not repeated


def test_no_reference_entry_describes_what_is_not_public() -> None:
    stale = sorted({(entry.namespace, entry.name) for entry in reference_entries()}
                   - required_entries())
    assert not stale, f"docs/reference/ describes names the code does not export: {stale}"


def entry_ids() -> Iterator[Any]:
    for entry in reference_entries():
        if (entry.namespace, entry.name) in required_entries():
            yield pytest.param(entry, id=f"{entry.namespace}:{entry.name}")


@pytest.mark.parametrize("entry", list(entry_ids()))
def test_the_documented_signature_is_the_code_s(entry: Entry) -> None:
    _, expected = resolve(entry)
    if expected is None:
        assert entry.params is None, f"{entry.code}: write the bare name, it takes no " \
            "parameter list of the kernel's"
        return
    assert entry.params, f"{entry.code}: give its parameter list"
    assert documented_params(entry.params) == expected, entry.code


def test_the_operation_options_are_the_typed_ones_with_their_defaults() -> None:
    rows = table("Operation options")
    hints = typing.get_type_hints(_tool.OperationOptions)
    assert [first_code(row[0]) for row in rows] == list(hints)
    read_only = set(typing.get_type_hints(_tool.ReadOptions))
    defaults = {field.name: field.default if field.default_factory is dataclasses.MISSING
                else field.default_factory() for field in dataclasses.fields(_tool.Operation)}
    for row in rows:
        name = first_code(row[0])
        assert literal(defaults[name]) == documented_params(f"(x={first_code(row[1])})")[0] \
            .default, name
        assert ("not `read`" in row[2]) == (name not in read_only), name
    for method in ("public", "organiser", "participant"):
        assert typing.get_type_hints(getattr(groupkit.Operations, method), include_extras=True)[
            "options"] == typing.Unpack[_tool.OperationOptions]
    assert typing.get_type_hints(groupkit.Operations.read, include_extras=True)["options"] == \
        typing.Unpack[_tool.ReadOptions]


# --- the Tool declaration ---------------------------------------------------------------

def test_the_tool_table_lists_every_field_in_order() -> None:
    fields = [field.name for field in dataclasses.fields(groupkit.Tool)]
    assert [first_code(row[0]) for row in table("`Tool`: the declaration")] == fields


@pytest.mark.parametrize("declaration", [groupkit.Tool, groupkit.Edit],
                         ids=lambda declaration: declaration.__name__)
def test_help_of_a_declaration_describes_every_field(declaration: type) -> None:
    """`help(groupkit.Tool)` and the page agree: both describe every field."""
    doc = declaration.__doc__ or ""
    missing = [field.name for field in dataclasses.fields(declaration)
               if not re.search(rf"^    {field.name}:", doc, re.MULTILINE)]
    assert not missing


def test_the_documented_tool_constraints_are_the_code_s() -> None:
    rows = {first_code(row[0]): row[1] for row in table("`Tool`: the declaration")}
    pattern = _plugins.NAME_PATTERN.pattern.strip("^$")
    assert f"`{pattern}`" in rows["name"]
    assert f"`{pattern}`" in (groupkit.Tool.__doc__ or "")
    for reserved in _plugins.RESERVED_NAMES:
        assert f"`{reserved}`" in rows["name"], reserved
    for group in _tool.GROUPS:
        assert f'`"{group}"`' in rows["group"], group
        assert f'"{group}"' in (groupkit.Tool.__doc__ or ""), group
    api = rows["plugin_api"]
    assert "keyword only" in api and "required" in api
    assert groupkit.PLUGIN_API_VERSION == hookspecs.PLUGIN_API_VERSION


def test_the_documented_tool_toml_keys_are_the_code_s() -> None:
    section = re.split(r"^#+ `tool\.toml`$", DOCS, maxsplit=1, flags=re.M)[1]
    section = section.split("\n## ", 1)[0]
    listed = section.split("The keys it may hold", 1)[1].split(". A field is declared", 1)[0]
    assert re.findall(r"`([a-z_]+)`", listed) == list(_tool.TOML_FIELDS)
    example = tomllib.loads(re.findall(r"```toml\n(.*?)```", section, re.S)[0])
    assert set(example) <= set(_tool.TOML_FIELDS)


# --- page scripts -----------------------------------------------------------------------

def kebab(camel: str) -> str:
    return "data-" + re.sub(r"[A-Z]", lambda match: "-" + match.group(0).lower(), camel)


def attributes_scripts_read() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for script in SCRIPTS:
        source = script.read_text("utf-8")
        names = {kebab(name) for name in re.findall(r"\.dataset\.(\w+)", source)}
        names |= set(re.findall(r"""["'\[](data-[a-z][a-z-]*)""", source))
        found[script.name] = names
    return found


def attributes_the_kernel_knows() -> set[str]:
    texts = [path.read_text("utf-8") for path in [*SCRIPTS, *PYTHON, *KIT_PYTHON,
                                                  *TEMPLATES.rglob("*.html")]]
    read = set().union(*attributes_scripts_read().values())
    return read | set(re.findall(r"data-[a-z][a-z-]*[a-z]", "\n".join(texts)))


def documented_attributes() -> dict[str, list[str]]:
    return {first_code(row[0]).split("=")[0]: row for row in table("Page script attributes")}


def test_every_attribute_a_page_script_reads_is_documented() -> None:
    documented = set(documented_attributes())
    missing = {script: sorted(names - documented)
               for script, names in attributes_scripts_read().items() if names - documented}
    assert not missing


def test_every_documented_attribute_is_one_the_kernel_knows() -> None:
    """No stale names: each `data-*` the page mentions is read by a kernel script (or the
    kernel's Python, such as the page-state suite) or written by a kernel template."""
    stale = sorted(set(re.findall(r"data-[a-z][a-z-]*[a-z]", DOCS))
                   - attributes_the_kernel_knows())
    assert not stale


# --- templates --------------------------------------------------------------------------

def kernel_rendered() -> set[str]:
    """Kernel templates the kernel renders itself (its own pages) or includes."""
    names: set[str] = set()
    for path in PYTHON:
        names |= set(re.findall(r"""["'](groupkit/\w+\.html)["']""", path.read_text("utf-8")))
    for path in (TEMPLATES / "groupkit").glob("*.html"):
        names |= set(re.findall(r"""\{%-? include ["'](groupkit/\w+\.html)""",
                                path.read_text("utf-8")))
    return names


def extendable() -> dict[str, str | None]:
    """The kernel templates a plugin's pages extend, each with the one it extends."""
    found: dict[str, str | None] = {}
    for path in sorted((TEMPLATES / "groupkit").glob("[!_]*.html")):
        name = f"groupkit/{path.name}"
        if name in kernel_rendered():
            continue
        parent = re.search(r"""\{% extends ["']([\w/.]+)["']""", path.read_text("utf-8"))
        found[name] = parent.group(1) if parent else None
    return found


def blocks_of(template: str) -> list[str]:
    tree = PARSER.parse((TEMPLATES / template).read_text("utf-8"))
    return [block.name for block in tree.find_all(nodes.Block)]


def test_the_extendable_templates_are_the_documented_ones() -> None:
    assert set(extendable()) == {"groupkit/base.html", "groupkit/create.html",
                                 "groupkit/public.html", "groupkit/organiser.html",
                                 "groupkit/signup.html"}
    for name in extendable():
        assert f"`{name}`" in DOCS, name


def test_every_template_block_is_documented_where_it_comes_from() -> None:
    """Each block a plugin can fill, with the kernel template that first offers it."""
    templates = extendable()

    def inherited(parent: str | None) -> set[str]:
        return set(blocks_of(parent)) | inherited(templates.get(parent)) if parent else set()

    introduced: set[tuple[str, str]] = set()
    for name, parent in templates.items():
        for block in blocks_of(name):
            if block not in inherited(parent):
                introduced.add((block, name))
    documented = [(first_code(row[0]), first_code(row[1])) for row in table("Template blocks")]
    assert len(documented) == len(set(documented))
    assert set(documented) == introduced


#: What `groupkit.web._pages.edit_form` adds to the organiser page's variables (checked
#: against what it returns in `test_the_edit_form_variables`).
EDIT_FORM_VARIABLES = {"editing", "edit_fields", "edit_fields_html", "edit_version",
                       "edit_shown"}


def rendered_context() -> dict[str, set[str]]:
    """Per plugin page, the variables the kernel renders it with, read from the kernel's
    render calls (`render(f"{tool.name}/public.html", tool=..., ...)`), plus the ones every
    page gets (the request, the environment's globals and filters) and the ones the kernel's
    templates set around the fields template they include."""
    found: dict[str, set[str]] = {page: set() for page in PAGES}
    every: set[str] = {"request"}
    for path in PYTHON:
        tree = ast.parse(path.read_text("utf-8"))
        # `context = dict(a=..., b=...)` passed on as `render(..., **context)`
        dicts = {target.id: {keyword.arg for keyword in node.value.keywords if keyword.arg}
                 for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "dict"
                 for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args and \
                    isinstance(node.args[0], ast.JoinedStr):
                tail = node.args[0].values[-1]
                text = tail.value if isinstance(tail, ast.Constant) else None
                page = re.fullmatch(r"/(\w+)\.html", text if isinstance(text, str) else "")
                if page and page.group(1) in found:
                    found[page.group(1)] |= {keyword.arg for keyword in node.keywords
                                             if keyword.arg and keyword.arg != "status"}
                    found[page.group(1)] |= {
                        name for keyword in node.keywords if keyword.arg is None
                        for name in dicts.get(ast.unparse(keyword.value), set())}
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "edit_form":
                found["organiser"] |= EDIT_FORM_VARIABLES
            if isinstance(node, ast.Call) and node.args and \
                    ast.unparse(node.args[0]) == "edit_template(tool)" and \
                    ast.unparse(node.func) == "render":  # the edit form's fields
                found["fields"] |= {keyword.arg for keyword in node.keywords if keyword.arg}
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr == "update" and "globals" in ast.unparse(node.func.value):
                every |= {keyword.arg for keyword in node.keywords if keyword.arg}
            if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith(
                    "jinja_env.filters") and isinstance(node.slice, ast.Constant):
                every.add(node.slice.value)
    for name in extendable():
        tree = PARSER.parse((TEMPLATES / name).read_text("utf-8"))
        for scope in tree.find_all(nodes.With):
            if any(True for _ in scope.find_all(nodes.Include)):
                found["fields"] |= {target.name for target in scope.targets
                                    if isinstance(target, nodes.Name)}
    return {page: names | every for page, names in found.items()}


async def test_the_edit_form_variables(make_app: Any) -> None:
    from groupkit.core._storage import Instance
    from groupkit.web._pages import edit_form
    app = make_app(tools=["card"])
    made = await (await app.test_client().post("/api/card", json={"recipient": "Ann"})
                  ).get_json()
    async with app.test_request_context("/"):
        instance = await app.config["GROUPKIT_STORAGE"].read(
            lambda: Instance.get(Instance.slug == made["slug"]))
        tool = app.config["GROUPKIT_REGISTRY"].tools["card"]
        assert set(edit_form(tool, instance, {"tool": tool, "instance": instance,
                                              "view": tool.organiser_view(instance)})) \
            == EDIT_FORM_VARIABLES


def test_every_template_variable_is_documented_for_its_pages() -> None:
    documented: dict[str, set[str]] = {page: set() for page in PAGES}
    for row in table("Template variables"):
        pages = set(PAGES) if "every page" in row[1] else \
            set(re.findall(r"\b(" + "|".join(PAGES) + r")\b", row[1]))
        assert pages, row
        for page in pages:
            documented[page].add(first_code(row[0]))
    context = rendered_context()
    assert context["public"] >= {"tool", "instance", "view", "request"}
    assert documented == context


# --- versions ---------------------------------------------------------------------------

def versioned_items() -> Iterator[tuple[str, str]]:
    for entry in reference_entries():
        yield f"{entry.namespace}:{entry.name}", entry.text
    for title in ("`Tool`: the declaration", "Operation options", "Page script attributes",
                  "Template blocks", "Template variables"):
        for row in table(title):
            yield f"{title}:{first_code(row[0])}", " | ".join(row)
    for name in [name for name, value in vars(hookspecs).items()
                 if name.startswith("groupkit_") and inspect.isfunction(value)]:
        section = re.split(rf"^#+ `{name}\(", DOCS, maxsplit=1, flags=re.M)[1]
        section = section.split("\n#", 1)[0]
        yield name, section


def test_every_documented_item_says_in_which_version_it_came() -> None:
    unversioned = [item for item, text in versioned_items()
                   if not any(what == "added" for what, _ in versions(text))]
    assert not unversioned, f"add *added in N* to {unversioned}"
    future = [item for item, text in versioned_items()
              if any(number > groupkit.PLUGIN_API_VERSION for _, number in versions(text))]
    assert not future


def test_the_plugin_api_change_is_noted_on_its_field() -> None:
    row = next(row for row in table("`Tool`: the declaration")
               if first_code(row[0]) == "plugin_api")
    assert ("changed", 1) in versions(" ".join(row))


def test_every_documented_callable_says_why_in_its_docstring() -> None:
    """`help()` of every entry that is code (methods and the kit's modules included) says
    why it exists; a dataclass's generated signature is no docstring."""
    silent = []
    for entry in reference_entries():
        if entry.namespace.endswith(".html"):
            continue
        obj, _ = resolve(entry)
        if not callable(obj):
            continue
        doc = (obj.__doc__ or "").strip()
        if len(doc) < 20 or doc.startswith(f"{entry.name.rpartition('.')[2]}("):
            silent.append(entry.name)
    assert not silent


def test_every_link_between_the_pages_has_its_heading() -> None:
    """The pages point at each other's sections by anchor (as MkDocs writes them); a
    renamed heading or a moved page must not strand a link."""
    def anchor(heading: str) -> str:
        return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

    def anchors(page: Path) -> set[str]:
        text = page.read_text("utf-8")
        return {anchor(heading) for heading in re.findall(r"^#+ (.*)$", text, re.MULTILINE)}

    stranded = []
    for page in [REPO / "docs" / "index.md", *PLUGIN_PAGES]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text("utf-8")):
            if "://" in target:
                continue
            path, _, fragment = target.partition("#")
            goal = (page.parent / path).resolve() if path else page
            if not goal.exists() or (fragment and goal.suffix == ".md"
                                     and fragment not in anchors(goal)):
                stranded.append(f"{page.relative_to(REPO)}: {target}")
    assert not stranded


def test_the_documented_numbers_are_the_code_s() -> None:
    """Limits and timings the page states, read from the kernel's own constants."""
    from groupkit.core import _fields
    from groupkit.core import _live
    from groupkit.web import _forms

    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 10: "ten"}
    live = Path(_live.__file__).read_text("utf-8")
    retry = re.search(r"retry: (\d+)", live)
    assert retry and f"`retry: {retry.group(1)}`" in DOCS
    assert f"every {_live.KEEPALIVE_SECONDS:g} s" in DOCS
    shortest = int(_live.STREAM_SECONDS * (1 - _live.STREAM_SPREAD) // 60)
    longest = int(_live.STREAM_SECONDS // 60)
    assert f"ends after {words[shortest]} to {words[longest]} minutes" in " ".join(DOCS.split())
    assert f"gone after {words[_forms.FLASH_SECONDS // 60]} minutes" in DOCS
    assert f"`#{_forms.ANCHOR}`" in DOCS
    assert f"{_fields.MAX_DIGITS} significant" in DOCS
    swap = re.search(r"retry = null; flush\(\); \}, (\d+)\)",
                     (PACKAGE / "web" / "static" / "groupkit.js").read_text("utf-8"))
    assert swap and f"retried every {int(swap.group(1)) / 1000:g} s" in DOCS

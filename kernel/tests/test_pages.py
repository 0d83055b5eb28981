"""Pages, their headers, robots.txt and the well-known documents."""

from __future__ import annotations

from typing import Any

from groupkit_testing import create

XSS = "<script>alert('x')</script>"


async def made(client: Any, title: str = "Lunch") -> dict[str, str]:
    return await create(client, "demo", {"title": title, "names": ["Ann"]})


async def test_capability_pages_carry_the_headers(client: Any) -> None:
    created = await made(client)
    token = (await (await client.post("/api/demo/join", json={
        "slug": created["slug"], "text": "Ann"})).get_json())["token"]
    for path, private in ((f"/s/{created['slug']}", False), (f"/e/{created['editToken']}", True),
                          (f"/p/{token}", True)):
        response = await client.get(path)
        assert response.status_code == 200, path
        headers = response.headers
        assert headers["Referrer-Policy"] == "same-origin"
        assert "noindex" in headers["X-Robots-Tag"]
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert (headers.get("Cache-Control") == "no-store") is private
        assert headers["X-Content-Type-Options"] == "nosniff"
        for name in ("Content-Security-Policy", "Referrer-Policy", "X-Robots-Tag"):
            assert len(headers.getlist(name)) == 1, name
        assert len(headers.getlist("Cache-Control")) == (1 if private else 0)


async def test_a_header_a_view_sets_is_replaced_or_kept_never_doubled(demo_app: Any) -> None:
    """Headers every response gets replace the view's own, except its own CSP, which a view
    may set for itself; the ones that depend on the path follow the path, also on errors."""
    from quart import Response

    @demo_app.get("/e/own/headers")
    async def own() -> Response:
        return Response("x", headers={"Content-Security-Policy": "default-src 'none'",
                                      "Cache-Control": "max-age=60",
                                      "Referrer-Policy": "unsafe-url"})

    client = demo_app.test_client()
    headers = (await client.get("/e/own/headers")).headers
    assert headers.getlist("Content-Security-Policy") == ["default-src 'none'"]
    assert headers.getlist("Cache-Control") == ["no-store"]
    assert headers.getlist("Referrer-Policy") == ["same-origin"]
    missing = await client.get("/nothing/here")
    assert missing.status_code == 404
    assert "script-src 'self'" in missing.headers["Content-Security-Policy"]
    assert "X-Robots-Tag" not in missing.headers and "Cache-Control" not in missing.headers


async def test_robots_txt_disallows_capability_paths(client: Any) -> None:
    text = await (await client.get("/robots.txt")).get_data(as_text=True)
    assert text.splitlines() == ["User-agent: *", "Disallow: /s/", "Disallow: /e/",
                                 "Disallow: /p/"]


async def test_no_authorization_server(client: Any) -> None:
    for path in ("/.well-known/oauth-protected-resource",
                 "/.well-known/oauth-authorization-server"):
        assert (await client.get(path)).status_code == 404


async def test_api_catalog_points_at_the_openapi_document(client: Any) -> None:
    response = await client.get("/.well-known/api-catalog")
    assert response.headers["Content-Type"].startswith("application/linkset+json")
    linkset = (await response.get_json())["linkset"][0]
    assert linkset["service-desc"][0]["href"].endswith("/openapi.json")
    head = await client.head("/.well-known/api-catalog")
    assert head.status_code == 200


async def test_home_lists_enabled_tools_and_links_create_pages(client: Any) -> None:
    html = await (await client.get("/")).get_data(as_text=True)
    assert 'href="/new/demo"' in html and "Demo" in html
    create_page = await client.get("/new/demo")
    assert create_page.status_code == 200
    assert 'data-api="/api/demo"' in await create_page.get_data(as_text=True)
    assert (await client.get("/new/nothing")).status_code == 404


async def test_user_text_is_escaped_everywhere(client: Any) -> None:
    created = await made(client, XSS)
    await client.post("/api/demo/note", json={"slug": created["slug"], "text": XSS})
    for path in (f"/s/{created['slug']}", f"/e/{created['editToken']}"):
        html = await (await client.get(path)).get_data(as_text=True)
        assert XSS not in html
        assert "&lt;script&gt;" in html


async def test_organiser_page_shows_both_links_with_copy_buttons(client: Any) -> None:
    created = await made(client)
    html = await (await client.get(f"/e/{created['editToken']}?new=1")).get_data(as_text=True)
    assert f"/s/{created['slug']}" in html and f"/e/{created['editToken']}" in html
    assert html.count("data-copy=") == 2
    assert "Keep this one to yourself" in html


async def test_unknown_pages_are_html_404s(client: Any) -> None:
    for path in ("/s/unknown-aaaaaaaaaaaaaa", "/e/" + "a" * 26, "/p/" + "a" * 22, "/p/x",
                 "/nothing"):
        response = await client.get(path)
        assert response.status_code == 404
        assert response.headers["Content-Type"].startswith("text/html")


async def test_healthz_checks_the_database(client: Any) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200 and await response.get_json() == {"ok": True}


async def test_a_page_failure_is_an_html_500_without_details(client: Any) -> None:
    created = await made(client)
    token = (await (await client.post("/api/demo/join", json={
        "slug": created["slug"], "text": "boom"})).get_json())["token"]
    response = await client.get(f"/p/{token}")
    assert response.status_code == 500
    html = await response.get_data(as_text=True)
    assert "Something went wrong" in html and "renderer bug" not in html
    assert response.headers["Cache-Control"] == "no-store"


def test_apps_of_one_process_compile_each_page_template_once(tmp_path: Any,
                                                            monkeypatch: Any) -> None:
    """Every app's page environment finds a template compiled by an earlier app in the same
    process, and compiles it again once its source changed (a development server's reload)."""
    import jinja2
    from quart import Quart

    from groupkit.web._pages import page_environment

    (tmp_path / "shared-compile-check.html").write_text("one {{ 1 + 1 }}", encoding="utf-8")
    compiled: list[str | None] = []
    compile_source = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None,
                 *args: Any, **kwargs: Any) -> Any:
        compiled.append(name)
        return compile_source(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)

    def render() -> str:
        app = Quart(__name__, template_folder=str(tmp_path))
        environment = page_environment(app, reload=True)
        return environment.get_template("shared-compile-check.html").render()

    assert render() == "one 2"
    assert render() == "one 2"
    assert compiled == ["shared-compile-check.html"]
    (tmp_path / "shared-compile-check.html").write_text("two {{ 2 + 2 }}", encoding="utf-8")
    assert render() == "two 4"
    assert compiled == ["shared-compile-check.html"] * 2

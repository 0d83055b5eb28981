"""Recipe Collection in a real browser: an organiser starts a book through its form, a
contributor adds a recipe and edits it from their own page, another adds one from a phone,
the book is read on screen and as it prints, the organiser sees contributor links (which
the public book never shows) and removes a recipe, and a contributor removes their own.
Every page is screenshotted and must load without console errors or CSP violations."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
MORE = [
    {"cook": "Dev", "dish": "Dal for a crowd", "serves": "10",
     "ingredients": "2 cups red lentils\n1 onion\n3 cloves garlic\n1 tbsp turmeric\nSalt",
     "method": "Rinse the lentils.\nFry the onion and garlic, add the spices.\n"
               "Add lentils and 6 cups of water; simmer 25 minutes.",
     "story": "What we ate every Sunday night growing up."},
    {"cook": "Rosa", "dish": "Olive oil cake",
     "ingredients": "3 eggs\n1 cup sugar\n3/4 cup olive oil\n1 orange, zest and juice\n"
                    "1 3/4 cups flour\n2 tsp baking powder",
     "method": "Whisk eggs and sugar until pale.\nStream in the oil, then the orange.\n"
               "Fold in the flour and baking powder. Bake 45 minutes at 175°C."},
]


def book(api: httpx.Client, slug: str) -> dict[str, Any]:
    return dict(api.get(f"/api/recipe/{slug}").raise_for_status().json())


def fill_recipe(page: Page, **fields: str) -> None:
    for name, value in fields.items():
        page.fill(f"#{name}", value)


def test_recipe_book(server: Any, api: httpx.Client,
                     open_context: Callable[[], Watched]) -> None:
    organiser = open_context()
    page = organiser.page
    page.goto("/")
    page.get_by_role("link", name="Recipe Collection").click()
    page.wait_for_url("**/new/recipe")
    page.get_by_role("button", name="Start the book").click()
    expect(page.get_by_role("alert")).to_have_text("What's the book called? Add a name.")
    assert len(organiser.problems) == 1 and "status of 400" in organiser.problems[0]
    organiser.problems.clear()
    page.fill("#title", "The Nguyen family cookbook")
    page.fill("#forWhom", "Mum's 70th")
    page.fill("#note", "Add the dishes you grew up with.")
    organiser.check("recipe-create")
    page.get_by_role("button", name="Start the book").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    organiser.check("recipe-organiser-new")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")

    # A contributor adds a recipe and lands on their own page for it.
    guest = open_context()
    ann = guest.page
    ann.goto(share)
    expect(ann.locator(".recipe-empty")).to_be_visible()
    guest.check("recipe-public-empty")
    fill_recipe(ann, cook="Ann", dish="Lemon slice", serves="16 squares",
                ingredients="1 cup flour\n1/2 cup coconut\n1 tin condensed milk\n2 lemons",
                method="Press the base into a tin.\nMix the topping and spread it over.\n"
                       "Chill overnight, then slice.",
                story="Nana's, from the back of a CWA cookbook.")
    ann.get_by_role("button", name="Add it to the book").click()
    ann.wait_for_url(re.compile(r"/p/[^/?]+$"))
    token = code_of(ann.url, "p")
    expect(ann.get_by_role("heading", level=1)).to_have_text(
        "Your recipe in The Nguyen family cookbook")
    assert ann.input_value("#dish") == "Lemon slice"
    assert ann.input_value("#private-link") == server.url(f"/p/{token}")
    guest.check("recipe-contributor-page")

    # Edits are checked like additions, and saved in place.
    ann.fill("#method", "")
    ann.get_by_role("button", name="Save changes").click()
    expect(ann.locator(".recipe-add [data-field-error]")).to_have_text(
        "Add the method — how do you make it?")
    assert len(guest.problems) == 1 and "status of 400" in guest.problems[0]
    guest.problems.clear()
    ann.fill("#method", "Press the base into a tin.\nSpread the topping.\nChill, then slice.")
    ann.fill("#dish", "Nana's lemon slice")
    with ann.expect_navigation():
        ann.get_by_role("button", name="Save changes").click()
    expect(ann.locator(".recipe-dish")).to_have_text("Nana's lemon slice")
    guest.check("recipe-contributor-saved")
    (stored,) = book(api, slug)["recipes"]
    assert stored["dish"] == "Nana's lemon slice" and stored["serves"] == "16 squares"

    # More recipes, one added from a phone.
    for recipe in MORE:
        api.post("/api/recipe/add", json={"slug": slug, **recipe}).raise_for_status()
    phone = open_context()
    bo = phone.page
    bo.set_viewport_size(PHONE)
    bo.goto(share)
    fill_recipe(bo, cook="Bo", dish="Fish sauce wings",
                ingredients="1 kg chicken wings\n3 tbsp fish sauce\n2 tbsp sugar\n4 cloves garlic",
                method="Marinate the wings for an hour.\nRoast at 220°C for 35 minutes.")
    bo.get_by_role("button", name="Add it to the book").click()
    bo.wait_for_url(re.compile(r"/p/[^/?]+$"))
    bo_token = code_of(bo.url, "p")
    phone.check("recipe-phone-added")
    bo.get_by_role("link", name="See it in the book").click()
    bo.wait_for_url(f"**/s/{slug}#recipe-*")
    expect(bo.locator("article.recipe")).to_have_count(4)
    phone.check("recipe-phone-book")

    # The book on screen: contents in the order added, each recipe set out in full.
    ann.goto(share)
    expect(ann.locator(".recipe-contents li")).to_have_count(4)
    expect(ann.locator(".recipe-contents a")).to_have_text(
        ["Nana's lemon slice", "Dal for a crowd", "Olive oil cake", "Fish sauce wings"])
    dal = ann.locator("article.recipe", has=ann.get_by_role("heading", name="Dal for a crowd"))
    expect(dal.locator(".recipe-ingredients li")).to_have_count(5)
    expect(dal.locator(".recipe-serves")).to_contain_text("10")
    expect(dal.locator(".recipe-story")).to_be_visible()
    guest.check("recipe-public-book")
    # Contributor tokens are never on the public book.
    html = ann.content()
    assert token not in html and bo_token not in html

    # In print: no form, each recipe starting its own page.
    ann.emulate_media(media="print")
    expect(ann.locator(".recipe-add")).to_be_hidden()
    assert ann.locator("article.recipe").first.evaluate(
        "element => getComputedStyle(element).breakBefore") == "page"
    guest.check("recipe-print")
    ann.emulate_media(media="screen")

    # The organiser sees every contributor's private link, and removes the cake.
    page.goto(f"/e/{edit_token}")
    expect(page.locator(".recipe-admin > li")).to_have_count(4)
    assert token in page.content() and bo_token in page.content()
    organiser.check("recipe-organiser-recipes")
    cake = page.locator(".recipe-admin > li", has=page.get_by_role("link", name="Olive oil cake"))
    with page.expect_navigation():
        cake.get_by_role("button", name="Remove from the book").click()
    expect(page.locator(".recipe-admin > li")).to_have_count(3)
    organiser.check("recipe-organiser-removed")

    # Bo removes their own recipe from their page and lands back on the book.
    bo.goto(f"/p/{bo_token}")
    with bo.expect_navigation():
        bo.get_by_role("button", name="Remove my recipe").click()
    bo.wait_for_url(f"**/s/{slug}")
    expect(bo.locator("article.recipe")).to_have_count(2)
    phone.check("recipe-phone-after-own-remove")
    assert [r["dish"] for r in book(api, slug)["recipes"]] == [
        "Nana's lemon slice", "Dal for a crowd"]

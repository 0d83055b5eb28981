"""Pixel Gift Registry: a gift registry drawn as a pixel-art vehicle built part by part."""

from __future__ import annotations

from groupkit import Hidden
from groupkit import Tool

from . import api
from .api import REGISTRY_SCHEMA
from .models import RegistryClaim
from .schema import MAX_CENTS
from .schema import MAX_CONTRIBUTIONS
from .schema import MIN_CENTS
from .schema import PART_COUNT
from .schema import CreateRegistry

groupkit_tool = Tool.hook(
    api, name="registry", title="Pixel Gift Registry",
    plugin_api=(1, 1), hidden=(Hidden("payment", shown_to=("organiser", "reply")),),
    group="celebrations", icon="🎀",
    summary="A wedding registry drawn as a pixel-art campervan: guests build it one "
            "part at a time, and chip in to the fuel fund.",
    create_schema=CreateRegistry, models=[RegistryClaim],
    limits={"parts": PART_COUNT, "overflowContributions": MAX_CONTRIBUTIONS,
            "overflowMinCents": MIN_CENTS, "overflowMaxCents": MAX_CENTS},
    public_schema=REGISTRY_SCHEMA,
    description=(
        "The vehicle is a campervan of 126 parts, ids `p001` to `p126`, each with a "
        "price fixed on the server (never read from a request). Guests claim a part with "
        "`POST /api/registry/claim` and chip in with `POST /api/registry/overflow`; the "
        "organiser lists claims with `GET /api/registry/{editToken}/claims`, marks one "
        "paid with `POST .../paid` and releases one with `POST .../release`, each by the "
        "claim's `reference`. Payment details appear only in the claimant's own claim "
        "reply and to the organiser. The public claim list shows names, what they built "
        "and their messages; never references, paid status or contribution amounts. "
        "coupleNames: null counts as empty; any other non-string is converted to text "
        "as a browser writes it. A public link that does not resolve (unknown, malformed, "
        "another tool's or deleted) answers the spec's 404 `not found` on the public "
        "read, its live updates and both public operations; organiser links keep the "
        "kernel's one 404 message."),
    not_found="not found",
    example={"coupleNames": "Mia & Sam", "tagline": "Help us build the honeymoon van",
             "weddingDate": "Saturday 14 March",
             "payment": {"method": "PayID", "aliasId": "mia.sam@example.com",
                         "accountName": "M & S Nguyen", "note": "Put your reference "
                         "in the description"}},
)

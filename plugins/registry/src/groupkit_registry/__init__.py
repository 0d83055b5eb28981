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
    api, hidden=(Hidden("payment", shown_to=("organiser", "reply")),),
    create_schema=CreateRegistry, models=[RegistryClaim],
    limits={"parts": PART_COUNT, "overflowContributions": MAX_CONTRIBUTIONS,
            "overflowMinCents": MIN_CENTS, "overflowMaxCents": MAX_CENTS},
    public_schema=REGISTRY_SCHEMA,
)

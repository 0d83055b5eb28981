"""Personal links: the organiser hands each person their own private link `/p/{token}`
instead of everyone claiming their name on the share page.

A tool whose people are listed by name (a draw, a team, a game) offers it as the optional
create field `personalLinks`. The link's token is issued with `keep_plain=True`, since the
organiser page shows it again (and only there: never a public view), one per person, with
the person's row id as its `ref`. Claiming a name is then refused, the same way for every
name, so probing the share page tells nothing. `Invitations` built from the same links let
the kernel email each person their own.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from groupkit.core._declared import Invitations
from groupkit.core._errors import conflict
from groupkit.core._i18n import N_
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._tokens import issue_token
from groupkit.core._tokens import revoke_tokens

#: The create field, and the key an instance keeps it under (only when it is on).
OPTION = "personalLinks"
#: What claiming a name answers while personal links are on (a 409).
CLAIM_BY_LINK = N_("Everyone here has their own personal link, so names can't be claimed on "
                   "this page: ask the organiser for your link.")


class PersonalLinks:
    """The personal links of one credential `kind` (`ref` is the person's row id).

    `refused` is the 409 a claim by name meets while the links are on: `CLAIM_BY_LINK`
    unless the tool words it its own way ("this draw uses personal links")."""

    def __init__(self, kind: str, refused: str | None = None) -> None:
        self.kind, self.refused = kind, refused or CLAIM_BY_LINK

    @staticmethod
    def on(instance: Instance) -> bool:
        """Whether the instance hands out personal links."""
        return bool(instance.data.get(OPTION))

    @staticmethod
    def keep_option(instance: Instance, data: Mapping[str, Any]) -> bool:
        """At create: store the option only when it is sent on, so an instance made without
        it is stored (and behaves) exactly as before the option existed."""
        if data.get(OPTION):
            instance.data = {**instance.data, OPTION: True}
        return PersonalLinks.on(instance)

    def issue(self, instance: Instance, ref: object) -> str | None:
        """A fresh personal link for person `ref` (any earlier one stops working), or None
        when the instance has no personal links."""
        if not self.on(instance):
            return None
        revoke_tokens(instance, self.kind, str(ref))
        return issue_token(instance, self.kind, str(ref), keep_plain=True)

    def refuse_claim(self, instance: Instance) -> None:
        """Raise the 409 `refused` while personal links are on: names are not claimed."""
        if self.on(instance):
            raise conflict(self.refused)

    def links(self, instance: Instance) -> dict[str, str]:
        """Each person's (by `ref`) current page, `/p/{token}`; empty without personal
        links."""
        if not self.on(instance):
            return {}
        return {credential.ref: f"/p/{credential.plain}" for credential in Credential.select()
                .where((Credential.instance == instance) & (Credential.kind == self.kind)
                       & Credential.plain.is_null(False))}

    def listed(self, instance: Instance,
               people: Iterable[tuple[object, str]]) -> list[dict[str, str]]:
        """The organiser's list: `{name, link}` for each `(ref, name)` that has a link, in
        the order given."""
        links = self.links(instance)
        return [{"name": name, "link": links[str(ref)]} for ref, name in people
                if str(ref) in links]

    def invitations(self, people: Callable[[Instance], Iterable[tuple[object, str]]]
                    ) -> Invitations:
        """`Tool.invite`: each person's name and their own link, for email; `people(instance)`
        gives `(ref, name)` in the organiser's order."""
        return Invitations(lambda instance: {
            entry["name"]: entry["link"] for entry in self.listed(instance, people(instance))})

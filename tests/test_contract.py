"""What every installed tool must do, checked the moment a tool is installed: the kit's
contract suite (`groupkit_testing.ContractSuite`), the one any plugin author runs over their
own tool, here over every installed tool, once in English and once asking for German (its
API answers the same English, its pages speak German)."""

from __future__ import annotations

from groupkit_testing import ContractSuite


class TestEveryInstalledTool(ContractSuite):
    """`tools` left empty: every installed tool, an outside plugin's included."""

    languages = ("en", "de")

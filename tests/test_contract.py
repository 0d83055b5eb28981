"""What every installed tool must do, checked the moment a tool is installed: the kit's
contract suite (`groupkit_testing.ContractSuite`), the one any plugin author runs over their
own tool, here over every installed tool."""

from __future__ import annotations

from groupkit_testing import ContractSuite


class TestEveryInstalledTool(ContractSuite):
    """`tools` left empty: every installed tool, an outside plugin's included."""

"""What the explorers' SVG tests share: comparing a picture with its stored snapshot, and
finding the hoverable groups (each carries ``data-key`` and the keys it lights up)."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

SNAPSHOTS = Path(__file__).parent / "snapshots"
SVG_KEY = "{http://www.w3.org/2000/svg}"


def assert_matches_snapshot(svg: str, path: Path) -> None:
    """``svg`` must equal the snapshot at ``path``; ``UPDATE_SNAPSHOTS=1`` (or a missing file) writes it."""
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.write_text(svg, encoding="utf-8")
    assert svg == path.read_text(encoding="utf-8"), f"{path.name} changed; rerun with UPDATE_SNAPSHOTS=1 if intended"


def hover_groups(svg: str) -> dict[str, ET.Element]:
    """The picture's hoverable groups by their ``data-key``."""
    return {group.get("data-key", ""): group for group in ET.fromstring(svg).iter(f"{SVG_KEY}g") if group.get("data-key")}

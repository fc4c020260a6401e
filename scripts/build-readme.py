#!/usr/bin/env python3
"""Assembles README.md from the sections in docs/readme/, in reading order.

Each section's headings are shifted so its top heading is a second-level one (the intro keeps
its own). Lines inside code fences are left alone.
"""
from pathlib import Path

ORDER = [
    "00-intro", "config", "cli", "pulling", "file-drop", "rest-adapter", "endpoint",
    "push-back", "queue", "storage", "platform-client", "simulator", "seed-data", "demo",
    "benchmarks", "zz-development",
]
root = Path(__file__).resolve().parent.parent
sections = root / "docs" / "readme"


def headings(lines):
    fenced = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            yield index, len(line) - len(line.lstrip("#"))


def shifted(text, top):
    lines = text.rstrip("\n").split("\n")
    found = list(headings(lines))
    if not found:
        return text
    delta = top - min(level for _, level in found)
    for index, level in found:
        lines[index] = "#" * (level + delta) + lines[index][level:]
    return "\n".join(lines) + "\n"


parts = []
for name in ORDER:
    path = sections / f"{name}.md"
    if not path.exists():
        continue
    text = path.read_text(encoding="utf-8")
    parts.append(text if name == "00-intro" else shifted(text, 2))
missing = sorted(p.stem for p in sections.glob("*.md") if p.stem not in ORDER)
if missing:
    raise SystemExit(f"sections not in ORDER: {', '.join(missing)}")
(root / "README.md").write_text("\n".join(parts), encoding="utf-8")
print(f"README.md written from {len(parts)} sections")

#!/usr/bin/env python3
"""Assembles README.md from the sections in docs/readme/, in reading order.

Usage: python3 scripts/build-readme.py [output]   (default: README.md in the project root)

Each section's headings are shifted so its top heading is a second-level one (the intro keeps
its own). Lines inside code fences are left alone.

A line `<!-- include: docs/examples/... -->` in a section is replaced by that file, as a fenced
block under its path in the outbox or inbox, so the README shows the example files themselves.
"""
import re
import sys
from pathlib import Path

ORDER = [
    "00-intro", "config", "cli", "running", "pulling", "file-drop", "rest-adapter", "endpoint",
    "push-back", "queue", "storage", "platform-client", "simulator", "seed-data", "demo",
    "benchmarks", "zz-development",
]
root = Path(__file__).resolve().parent.parent
sections = root / "docs" / "readme"
INCLUDE = re.compile(r"^<!-- include: (\S+) -->$")
# Where an example file sits for the user: docs/examples/outbox/<variant>/x -> <outbox>/x.
LABELS = [
    (re.compile(r"^docs/examples/outbox/[^/]+/"), "<outbox>/"),
    (re.compile(r"^docs/examples/inbox/"), "<inbox>/"),
]


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


def label(path):
    for pattern, replacement in LABELS:
        if pattern.match(path):
            return pattern.sub(replacement, path)
    return path


def included(path, section):
    source = root / path
    if not source.is_file():
        raise SystemExit(f"docs/readme/{section}.md includes {path}, which does not exist")
    body = source.read_text(encoding="utf-8").lstrip("\ufeff")
    if not body.endswith("\n"):
        body += "\n"
    return f"`{label(path)}`:\n\n```{source.suffix.lstrip('.')}\n{body}```"


def with_includes(text, section):
    lines = text.split("\n")
    for index, line in enumerate(lines):
        match = INCLUDE.match(line)
        if match:
            lines[index] = included(match.group(1), section)
    return "\n".join(lines)


output = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else root / "README.md"
parts = []
for name in ORDER:
    path = sections / f"{name}.md"
    if not path.exists():
        continue
    text = with_includes(path.read_text(encoding="utf-8"), name)
    parts.append(text if name == "00-intro" else shifted(text, 2))
missing = sorted(p.stem for p in sections.glob("*.md") if p.stem not in ORDER)
if missing:
    raise SystemExit(f"sections not in ORDER: {', '.join(missing)}")
output.write_text("\n".join(parts), encoding="utf-8")
print(f"{output.name} written from {len(parts)} sections")

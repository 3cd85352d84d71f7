#!/usr/bin/env python3
"""docs/architecture.md names only real things, and the docs' links resolve (a house test).

docs/architecture.md describes the structure of the code, so what it names must exist:
  (a) it has at most 250 lines (timings belong in docs/benchmarks.md);
  (b) every repository path it names in backticks or links exists: `src/closure/...`,
      `kernels/x.cl`, `tools/...`, `python/...`, `docs/x.md`, `tests/...`; a path may also
      be relative to src/closure/ (`io/atomic_file.*`) or src/ (`cli/app.cpp`), a bare file
      name (`scc.cpp`) may lie in any folder of the repository, and globs (`*`, `{a,b}`)
      must match something;
  (c) every C++-looking name in backticks (`Session`, `plan()`, `reach::LivingIndex`,
      `compute_closure`, `LIVE_ROWS`) occurs, each `::` part as a whole word, somewhere in
      src/, kernels/, python/ or the build files (CMakeLists.txt, cmake/);
  (d) no line names DESIGN.md, ../shared or an issue by number.
And in README.md and docs/*.md every markdown link to a docs/*.md file (or to a heading of
the same file, `(#anchor)`) names a file that exists and, with an anchor, a heading of it
(GitHub's anchors: lowercase, punctuation removed, spaces to '-', repeats numbered).

Usage: docs_name_real_things.py REPO_ROOT   (one FILE:LINE: message per failure, exit 1)
"""

import glob
import pathlib
import re
import sys

MAX_LINES = 250
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".cl", ".py", ".pyi", ".md", ".cmake", ".sh",
                   ".txt", ".toml", ".in", ".gra", ".json")
# Where a path that does not start at the repository root may be relative to.
PATH_BASES = ("", "src/closure", "src")
# Where a bare file name (no folder) may lie.
BARE_NAME_FOLDERS = ("src", "kernels", "python", "tools", "tests", "cmake", "docs", "examples")
# Where the names of (c) must occur.
SYMBOL_SOURCES = ("src", "kernels", "python", "cmake", "CMakeLists.txt")

INLINE_CODE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[([^\]\n]*)\]\(([^)\s]+)\)")
PATH_LIKE = re.compile(r"^[A-Za-z0-9_.\-*/{},]+$")
SYMBOL_LIKE = re.compile(r"^(?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*(?:\(\))?$")
FORBIDDEN = [
    (re.compile(r"DESIGN\.md"), "names DESIGN.md, which is not in the repository"),
    (re.compile(r"\.\./shared"), "names ../shared, which is outside the repository"),
    (re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE), "cites an issue by number"),
]


def outside_fences(text):
    """(line number, line) for every line outside ``` fences."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def expand_braces(pattern):
    """'a.{hpp,cpp}' -> ['a.hpp', 'a.cpp'] (nested braces too)."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    out = []
    for choice in m.group(1).split(","):
        out += expand_braces(pattern[:m.start()] + choice + pattern[m.end():])
    return out


def is_path(token):
    if not PATH_LIKE.match(token) or not re.search(r"[A-Za-z]", token):
        return False
    if "/" in token:
        return not token.startswith("/")
    return token.rstrip("*").endswith(SOURCE_SUFFIXES) or re.search(r"\.(\*|\{)", token)


def path_exists(root, token, here):
    """Whether `token` names something in the repository (see the module's docstring)."""
    for pattern in expand_braces(token.rstrip("/")):
        if "/" in pattern:
            bases = [str(here.relative_to(root))] + list(PATH_BASES)
            candidates = [root / b / pattern for b in bases]
        else:
            candidates = [root / pattern, root / "docs" / pattern] + [
                root / folder / "**" / pattern for folder in BARE_NAME_FOLDERS]
        if not any(glob.glob(str(c), recursive=True) for c in candidates):
            return False
    return True


def is_symbol(token):
    if not SYMBOL_LIKE.match(token):
        return False
    bare = token.replace("()", "")
    if "::" in bare or token.endswith("()"):
        return True
    if "_" in bare and bare.strip("_"):
        return True  # snake_case, SCREAMING_CASE
    return bool(re.match(r"^[A-Z][a-z0-9]+[A-Z]", bare))  # CamelCase (not a capitalised word)


def source_words(root):
    words = set()
    for place in SYMBOL_SOURCES:
        path = root / place
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        for f in files:
            try:
                words.update(re.findall(r"[A-Za-z_]\w*", f.read_text(errors="replace")))
            except OSError:
                pass
    return words


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())  # a link shows its text
    text = text.lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    for _, line in outside_fences(path.read_text(errors="replace")):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def check_architecture(root, failures):
    doc = root / "docs" / "architecture.md"
    rel = doc.relative_to(root)
    text = doc.read_text(errors="replace")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        failures.append(f"{rel}:{len(lines)}: {len(lines)} lines, more than {MAX_LINES}")
    for number, line in enumerate(lines, 1):
        for pattern, message in FORBIDDEN:
            if pattern.search(line):
                failures.append(f"{rel}:{number}: {message}")
    words = source_words(root)
    for number, line in outside_fences(text):
        tokens = [t.strip() for t in INLINE_CODE.findall(line)]
        for _, target in LINK.findall(line):
            if not re.match(r"^[a-z]+:", target) and not target.startswith("#"):
                tokens.append(target.split("#")[0])
        for token in tokens:
            if is_path(token):
                if not path_exists(root, token, doc.parent):
                    failures.append(f"{rel}:{number}: `{token}` names no file of the repository")
            elif is_symbol(token):
                missing = [p for p in token.replace("()", "").lstrip("~").split("::")
                           if p.lstrip("~") not in words]
                if missing:
                    failures.append(f"{rel}:{number}: `{token}`: {'::'.join(missing)} occurs "
                                    f"nowhere in {', '.join(SYMBOL_SOURCES)}")


def check_links(root, failures):
    docs = root / "docs"
    cache = {}
    for md in [root / "README.md"] + sorted(docs.glob("*.md")):
        rel = md.relative_to(root)
        for number, line in outside_fences(md.read_text(errors="replace")):
            # Inline code is not a link.
            for _, target in LINK.findall(INLINE_CODE.sub("", line)):
                if re.match(r"^[a-z]+:", target):
                    continue
                path_part, _, anchor = target.partition("#")
                dest = (md.parent / path_part).resolve() if path_part else md.resolve()
                if dest.suffix != ".md" or dest.parent != docs.resolve():
                    continue
                if not dest.is_file():
                    failures.append(f"{rel}:{number}: link to {target}: no such file")
                    continue
                if anchor:
                    if dest not in cache:
                        cache[dest] = anchors(dest)
                    if anchor not in cache[dest]:
                        failures.append(f"{rel}:{number}: link to {target}: "
                                        f"{dest.name} has no heading with that anchor")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1]).resolve()
    failures = []
    check_architecture(root, failures)
    check_links(root, failures)
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

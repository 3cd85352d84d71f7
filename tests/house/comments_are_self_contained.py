#!/usr/bin/env python3
"""Comments are self-contained (a house test): no comment in the code cites a file outside
the repository (a design note or a shared folder beside the checkout) or names a tracker
entry by its number. A comment states what it means; the repository holds what it cites.

Scanned: src/, kernels/, python/, cmake/, CMakeLists.txt and the code of tests/ (its data
files and the house checkers in tests/house/, which must spell what they look for, aside).
Comments are // and /* */ in C++ and OpenCL (string literals, raw ones included, are not
comments), # in CMake, shell and Python, and Python's docstrings.

Usage: comments_are_self_contained.py REPO_ROOT   (one FILE:LINE: message per hit, exit 1)
"""
import io
import os
import re
import sys
import tokenize

FORBIDDEN = [
    (re.compile(r"DESIGN\.md"), "cites DESIGN.md, which is not in the repository"),
    (re.compile(r"\.\./shared\b"), "cites ../shared, which is outside the repository"),
    (re.compile(r"(?<![\w.-])shared/[A-Za-z]"), "cites shared/, which is outside the repository"),
    (re.compile(r"\b[Ii]ssues? #?\d+"), "cites an issue by number"),
    (re.compile(r"\bturn \d+\b"), "cites a session's turn by number"),
]

C_LIKE = (".cpp", ".hpp", ".h", ".cc", ".c", ".cl")
SKIP_DIRS = {os.path.join("tests", "data"), os.path.join("tests", "house")}


def c_comments(text):
    """(line, comment text) for every // and /* */ comment, outside string literals."""
    out = []
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i + 2:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for k, part in enumerate(text[i + 2:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end + 2
        elif ch == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\\s]{0,16})\(', text[i:])
            if not m:
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            line += text.count("\n", i, end)
            i = end
        elif ch == "'" and i > 0 and text[i - 1].isdigit():
            i += 1  # a digit separator (200'000), not a character literal
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """(line, comment text) for # comments of CMake and shell, outside quoted strings."""
    out = []
    quote = None
    for number, raw in enumerate(text.split("\n"), 1):
        i = 0
        while i < len(raw):
            ch = raw[i]
            if quote:
                if ch == "\\" and quote == '"':
                    i += 2
                    continue
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                # A shell apostrophe inside a word (don't) opens nothing in CMake either.
                if ch == "'" and i > 0 and raw[i - 1].isalnum():
                    i += 1
                    continue
                quote = ch
            elif ch == "\\":
                i += 2
                continue
            elif ch == "#" and (i == 0 or raw[i - 1] in " \t(;"):
                out.append((number, raw[i + 1:]))
                break
            i += 1
        if quote == "'":
            quote = None  # single quotes never span lines in what is scanned here
    return out


def python_comments(text):
    """(line, comment text) for # comments and docstrings (strings standing as statements)."""
    out = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return hash_comments(text)
    starts = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}
    previous = tokenize.NEWLINE
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string[1:]))
        elif tok.type == tokenize.STRING and previous in starts:
            for k, part in enumerate(tok.string.split("\n")):
                out.append((tok.start[0] + k, part))
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return out


def comments_of(path):
    name = os.path.basename(path)
    base = name[:-3] if name.endswith(".in") else name
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if base.endswith(C_LIKE):
        return c_comments(text)
    if base.endswith((".py", ".pyi")):
        return python_comments(text)
    if base.endswith((".cmake", ".sh")) or base == "CMakeLists.txt":
        return hash_comments(text)
    return []


def files_to_scan(root):
    for top in ("src", "kernels", "python", "cmake", "tests"):
        for folder, dirs, names in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(folder, root)
            dirs[:] = sorted(d for d in dirs
                             if os.path.join(rel, d) not in SKIP_DIRS and not d.startswith(".")
                             and d not in ("__pycache__", "build"))
            for name in sorted(names):
                yield os.path.join(folder, name)
    yield os.path.join(root, "CMakeLists.txt")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = sys.argv[1]
    hits = 0
    for path in files_to_scan(root):
        if not os.path.isfile(path):
            continue
        rel = os.path.relpath(path, root)
        for line, comment in comments_of(path):
            for pattern, message in FORBIDDEN:
                if pattern.search(comment):
                    print(f"{rel}:{line}: {message}: {comment.strip()}")
                    hits += 1
                    break
    if hits:
        print(f"{hits} comment(s) cite what the repository does not hold", file=sys.stderr)
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The code limits of issue #12, checked on the files git tracks: no Rust function over 120
lines (from its `fn` line to its closing brace, found by brace matching with comments, strings
and character literals blanked out), no source file over 600 lines (the Russian move generator
says in its header why it is longer), and imports that obey the layers of `src/lib.rs` (each
module of `src/` uses only the layers before it, search names no game, tools do not use
`damka::cli`).

Usage: tools/code_limits.py [--fn-lines 120] [--file-lines 600]; exit status 1 when a limit
is broken (the long move generator excepted).
"""

import argparse
import re
import subprocess
import sys

# The layers of src/lib.rs, in order: each may use only those before it.
LAYERS = ["core", "variant", "perft", "eval", "egtb", "dispatch", "game", "search", "book",
          "engine", "protocol", "cli"]
# Longer than the file limit on purpose (its header says why).
LONG_FILES = {"src/variant/russian/movegen.rs"}


def blank(src, start, end):
    """`src[start:end]` with everything but line breaks turned to spaces."""
    return re.sub(r"[^\n]", " ", src[start:end])


def strip_rust(src):
    """The source with comments, strings and character literals blanked, lines kept."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                step = src[j:j + 2]
                depth += (step == "/*") - (step == "*/")
                j += 2 if step in ("/*", "*/") else 1
        elif re.match(r'r#*"', src[i:i + 8]) and (i == 0 or not src[i - 1].isalnum()):
            hashes = re.match(r'r(#*)"', src[i:]).group(1)
            j = src.find('"' + hashes, i + 2 + len(hashes))
            j = n if j < 0 else j + 1 + len(hashes)
        elif src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
        elif src[i] == "'" and re.match(r"'(\\.[^']*|[^\\'])'", src[i:]):
            j = i + len(re.match(r"'(\\.[^']*|[^\\'])'", src[i:]).group(0))
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(blank(src, i, j))
        i = j
    return "".join(out)


def functions(src):
    """(name, first line, last line) of every function with a body."""
    s = strip_rust(src)
    for m in re.finditer(r"\bfn\s+(\w+)", s):
        j, depth = m.end(), 0
        while j < len(s) and not (depth == 0 and s[j] in "{;"):
            depth += (s[j] in "([") - (s[j] in ")]")
            j += 1
        if j >= len(s) or s[j] == ";":
            continue
        k, braces = j, 0
        while k < len(s):
            braces += (s[k] == "{") - (s[k] == "}")
            if braces == 0:
                break
            k += 1
        yield m.group(1), s.count("\n", 0, m.start()) + 1, s.count("\n", 0, k) + 1


def layer_problems(path, src):
    """What in file `path` breaks the layers."""
    code = strip_rust(src)
    found = []
    if path.startswith("src/") and path not in ("src/lib.rs", "src/main.rs"):
        module = path.split("/")[1].removesuffix(".rs")
        if module not in LAYERS:
            return [f"{path}: module {module} is not among the layers"]
        for used in sorted(set(re.findall(r"\bcrate::(\w+)", code))):
            if used in LAYERS and LAYERS.index(used) > LAYERS.index(module):
                found.append(f"{path}: {module} uses the later layer {used}")
        if module == "search" and re.search(r"\b(Russian|Turkish)\w*|Variant::", code):
            found.append(f"{path}: search names a game")
    if path.startswith("tools/") and re.search(r"\bdamka::cli\b", code):
        found.append(f"{path}: a tool uses damka::cli")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fn-lines", type=int, default=120)
    ap.add_argument("--file-lines", type=int, default=600)
    args = ap.parse_args()
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True,
                             check=True).stdout.split()
    rust = [f for f in tracked if f.endswith(".rs")]
    long_fns, long_files, layers, count = [], [], [], 0
    for path in tracked:
        if not re.search(r"\.(rs|py|js|sh)$", path):
            continue
        src = open(path, encoding="utf-8").read()
        lines = src.count("\n")
        if lines > args.file_lines:
            long_files.append((lines, path))
        if path in rust:
            for name, first, last in functions(src):
                count += 1
                if last - first + 1 > args.fn_lines:
                    long_fns.append((last - first + 1, f"{path}:{first}-{last}", name))
            layers += layer_problems(path, src)
    print(f"{count} functions in {len(rust)} Rust files; over {args.fn_lines} lines: "
          f"{len(long_fns)}")
    for n, where, name in sorted(long_fns, reverse=True):
        print(f"  {n:5} {where} {name}")
    print(f"source files over {args.file_lines} lines: {len(long_files)}")
    for n, path in sorted(long_files, reverse=True):
        print(f"  {n:5} {path}{' (says why)' if path in LONG_FILES else ''}")
    print(f"layers {' -> '.join(LAYERS)}: {len(layers)} problem(s)")
    for p in layers:
        print("  " + p)
    broken = long_fns or layers or any(p not in LONG_FILES for _, p in long_files)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

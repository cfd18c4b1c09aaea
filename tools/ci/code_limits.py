#!/usr/bin/env python3
"""The code limits, checked on the files git tracks: no Rust function over 120
lines (from its `fn` line to its closing brace, found by brace matching with comments, strings
and character literals blanked out), no source file over 600 lines (the Russian move generator
says in its header why it is longer), and imports that obey the layers of `src/lib.rs` (each
module of `src/` uses only the layers before it, search names no game, tools do not use
`damka::cli`), and no import cycles between the files of a crate (`src/` and each tool's
`src/`): a file's `use` and `crate::`/`super::`/`self::` paths are edges to the files that
define the modules they name; a file's edges to the files of its enclosing modules do not
count (a parent declares its children and re-exports them, the children use its items).
Every relative link of README.md and docs/**/*.md (`[text](path#anchor)`, `(#anchor)`) must
name a tracked file or folder and, with `#anchor`, a heading of that file by GitHub's slug
rules, so that a doc moved or a heading renamed cannot leave a dead link behind.
Hygiene of the tree: no symbolic links (they break on Windows checkouts), no `#[path]` that
reaches outside its own crate (a crate that needs another's code depends on it), no issue
numbers in code or its comments (say why, not which ticket: `owner/repo#N` naming another
project stays), and each engine option declared once, in the `OPTIONS` table of
`src/engine/options.rs` (unique names; no other file builds an `EngineOption` or an option
range of its own). Docs of the present stay short: README.md at most 500 lines, and
docs/performance.md and docs/evaluation.md at most 400 each (their history lives in
docs/history/). Every integration test file runs: in a package with `autotests = false`, each
file of `tests/` is a `[[test]]` of its Cargo.toml or a module of one; folders of test
helpers are named `SUBJECT_support`.

Usage: tools/ci/code_limits.py [--fn-lines 120] [--file-lines 600]; exit status 1 when a limit
is broken (the long move generator excepted).
"""

import argparse
import doctest
import os
import re
import subprocess
import sys

# The layers of src/lib.rs, in order: each may use only those before it.
LAYERS = ["core", "data", "variant", "perft", "eval", "egtb", "dispatch", "game", "search", "book",
          "engine", "review", "protocol", "cli"]
# The longest each of these docs may be: a user guide, and two docs of present figures whose
# experiments and superseded results belong in docs/history/.
DOC_LINES = {"README.md": 500, "docs/performance.md": 400, "docs/evaluation.md": 400}
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


def module_of(root, path):
    """The module path (a tuple of names) of file `path` in the crate whose source folder is
    `root` (`lib.rs`, `main.rs`: the crate root)."""
    parts = path[len(root) + 1:].removesuffix(".rs").split("/")
    if parts[-1] in ("mod", "lib", "main") and (parts[-1] == "mod" or len(parts) == 1):
        parts = parts[:-1]
    return tuple(parts)


def use_paths(tree):
    """The full paths of a `use` tree (`a::{b, c::{d, e as f}}` -> a::b, a::c::d, a::c::e)."""
    tree = re.sub(r"\s+", "", tree)
    depth, start, items, cut = 0, 0, [], None
    for i, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                cut = i
            depth += 1
        elif ch == "}":
            depth -= 1
    if cut is None:
        return [re.sub(r"as\w+$", "", tree).removesuffix("::*").split("::")]
    prefix, inner = tree[:cut].rstrip(":"), tree[cut + 1:tree.rindex("}")]
    depth, start = 0, 0
    for i, ch in enumerate(inner + ","):
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            if inner[start:i]:
                items.append(inner[start:i])
            start = i + 1
    out = []
    for item in items:
        for p in use_paths(item):
            p = [x for x in p if x != "self"] if p[0] == "self" else p
            out.append((prefix.split("::") if prefix else []) + p)
    return out or [prefix.split("::")]


def import_edges(root, files):
    """Edges (file, file used) between the Rust files of the crate in `root`."""
    modules = {module_of(root, f): f for f in files}
    edges = set()
    for f in files:
        here = module_of(root, f)
        code = strip_rust(open(f, encoding="utf-8").read())
        paths = []
        for m in re.finditer(r"\buse\s+([^;]+);", code):
            paths += use_paths(m.group(1))
        paths += [p.split("::") for p in re.findall(r"\b(?:crate|super|self)(?:::\w+)+", code)]
        for p in paths:
            if p[0] == "crate":
                target, rest = (), p[1:]
            elif p[0] in ("super", "self"):
                target, rest = here, p
                while rest and rest[0] in ("super", "self"):
                    target = target[:-1] if rest[0] == "super" else target
                    rest = rest[1:]
            elif here + (p[0],) in modules:
                target, rest = here, p
            else:
                continue
            for name in rest:
                if target + (name,) not in modules:
                    break
                target += (name,)
            used = modules.get(target)
            if used and used != f and not (here[:len(target)] == target):
                edges.add((f, used))
    return edges


def cycles(edges):
    """The strongly connected sets of more than one file (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def import_cycles(rust):
    """Each import cycle of the crates in the tracked Rust files, as a sorted file list."""
    roots = sorted({f.rsplit("/", 1)[0] for f in rust
                    if re.search(r"(^|/)src/(lib|main)\.rs$", f)})
    found = []
    for root in roots:
        inner = [f for f in rust if f.startswith(root + "/")
                 and not any(r != root and r.startswith(root + "/") and f.startswith(r + "/")
                             for r in roots)]
        found += cycles(import_edges(root, inner))
    return found


def slug(heading):
    """GitHub's anchor for a heading's text: lower case, inline markup and punctuation dropped
    (letters, digits, `_` and `-` stay), each space a `-`.

    >>> slug("Bench, depth in one second, threads")
    'bench-depth-in-one-second-threads'
    >>> slug("Data: `damka datagen`")
    'data-damka-datagen'
    >>> slug("Generation 7 (russian-g7, turkish-g7, the defaults): no patterns")
    'generation-7-russian-g7-turkish-g7-the-defaults-no-patterns'
    >>> slug("Limits (`level`)")
    'limits-level'
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def markdown_parts(src):
    """(headings, links) of a markdown text outside fenced and indented code blocks; the
    links are the targets of `[text](target)`, without a title.

    >>> markdown_parts("# A b\\n\\n    [x](no.md)\\n```\\n# not\\n```\\nsee [y](a.md#a-b \\"t\\") ![z](p.png)\\n")
    (['A b'], ['a.md#a-b', 'p.png'])
    """
    headings, links, fenced = [], [], False
    for line in src.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    ") or line.startswith("\t"):
            continue
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            headings.append(m.group(1))
        line = re.sub(r"`[^`]*`", "", line)
        links += [t.split()[0] for t in re.findall(r"\]\(([^)\s]+(?:\s+\"[^\"]*\")?)\)", line)]
    return headings, links


def anchors(headings):
    """The anchors GitHub makes for a file's headings, repeats numbered `-1`, `-2`, ..."""
    seen, out = {}, set()
    for h in headings:
        base = slug(h)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def link_problems(tracked):
    """Each relative link of the tracked README.md and docs/ that names no file or no heading."""
    docs = [f for f in tracked if f == "README.md" or (f.startswith("docs/") and f.endswith(".md"))]
    found, heads = [], {}
    for doc in docs:
        for target in markdown_parts(open(doc, encoding="utf-8").read())[1]:
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            path, _, anchor = target.partition("#")
            path = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not os.path.exists(path):
                found.append(f"{doc}: link to {target}: no such file")
                continue
            if anchor and path.endswith(".md"):
                if path not in heads:
                    heads[path] = anchors(markdown_parts(open(path, encoding="utf-8").read())[0])
                if anchor not in heads[path]:
                    found.append(f"{doc}: link to {target}: no such heading in {path}")
    return found


# Code files searched for issue numbers (prose in docs/ may tell history by subject).
CODE_SUFFIXES = (".rs", ".py", ".js", ".sh", ".html", ".css", ".toml")
ISSUE_NUMBER = re.compile(r"(?i)(?<![\w/.-])(issues?\s*#?\s*\d+|\(#\d+\)|(?:see|in|of|per|from) #\d+)")
OPTIONS_FILE = "src/engine/options.rs"


def crate_root(path):
    """The folder of the nearest Cargo.toml above `path` (the repository root at worst)."""
    d = os.path.dirname(path)
    while d and not os.path.exists(os.path.join(d, "Cargo.toml")):
        d = os.path.dirname(d)
    return d


def issue_numbers(src):
    """Issue references in a code file's text, with their line numbers.

    >>> [(n, len(what)) for n, what in issue_numbers(
    ...     "// a cap (issue " + "50)\\nlet x = 1; // lidraughts-bot#33 asks\\n")]
    [(1, 8)]
    >>> [len(what) for _, what in issue_numbers("color: #333; /* see " + "#12 */")]
    [7]
    """
    return [(src.count("\n", 0, m.start()) + 1, m.group(1)) for m in ISSUE_NUMBER.finditer(src)]


def hygiene_problems(tracked):
    """Symbolic links, `#[path]` outside the crate, issue numbers in code, options declared twice."""
    found = []
    staged = subprocess.run(["git", "ls-files", "-s"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    found += [f"{line.split(None, 3)[3]}: a symbolic link" for line in staged
              if line.startswith("120000 ")]
    for path in tracked:
        if not path.endswith(CODE_SUFFIXES) or not os.path.isfile(path):
            continue
        src = open(path, encoding="utf-8").read()
        found += [f"{path}:{n}: an issue number in code ({what})"
                  for n, what in issue_numbers(src)]
        if not path.endswith(".rs"):
            continue
        root = os.path.abspath(crate_root(path) or ".")
        for m in re.finditer(r'#\[path\s*=\s*"([^"]+)"\s*\]', src):
            target = os.path.abspath(os.path.join(os.path.dirname(path), m.group(1)))
            if os.path.commonpath([root, target]) != root:
                found.append(f"{path}: #[path = \"{m.group(1)}\"] reaches outside its crate")
        test = path.startswith("tests/") or "/tests/" in path
        if (path != OPTIONS_FILE and not test
                and re.search(r"(?<!struct )\bEngineOption\s*\{|\bDeclared\s*\{", src)):
            found.append(f"{path}: declares an engine option outside {OPTIONS_FILE}")
    if os.path.exists(OPTIONS_FILE):
        # Each entry of the table is a call of its kind's constructor, the name first.
        names = re.findall(r'^    (?:int|flag|text|one_of)\(\s*"([^"]+)"',
                           open(OPTIONS_FILE, encoding="utf-8").read(), re.M)
        if not names:
            found.append(f"{OPTIONS_FILE}: no option declarations found (the check is stale)")
        found += [f"{OPTIONS_FILE}: option {n!r} declared {names.count(n)} times"
                  for n in sorted(set(names)) if names.count(n) > 1]
    return found


def test_targets(tracked):
    """The integration test binaries of the workspace and the problems of their layout: each
    package's `tests/*.rs` is a binary of its own unless its Cargo.toml says `autotests =
    false`; then its binaries are its `[[test]]` entries, and every other file of `tests/` must
    be a module of one of them (a file that is neither would never be compiled nor run). The
    folders of Rust helpers under `tests/` are named `SUBJECT_support`, in every package."""
    binaries, found = [], []
    packages = sorted({os.path.dirname(p) for p in tracked if os.path.basename(p) == "Cargo.toml"})
    for pkg in packages:
        folder = os.path.join(pkg, "tests") if pkg else "tests"
        files = sorted(p for p in tracked if os.path.dirname(p) == folder and p.endswith(".rs"))
        helpers = sorted({p[len(folder) + 1:].split("/")[0] for p in tracked
                          if p.startswith(folder + "/") and p.count("/") > folder.count("/") + 1
                          and p.endswith(".rs")})
        found += [f"{folder}/{h}/: a folder of test helpers is named SUBJECT_support"
                  for h in helpers if not h.endswith("_support")]
        if not files:
            continue
        manifest = open(os.path.join(pkg, "Cargo.toml") if pkg else "Cargo.toml",
                        encoding="utf-8").read()
        if not re.search(r"^autotests\s*=\s*false", manifest, re.M):
            binaries += files
            continue
        declared = [os.path.join(folder, os.path.relpath(m, "tests")) for m in re.findall(
            r'^\[\[test\]\][^\[]*?^path\s*=\s*"([^"]+)"', manifest, re.M | re.S)]
        binaries += declared
        modules = set()
        for root in declared:
            if os.path.exists(root):
                src = open(root, encoding="utf-8").read()
                modules |= set(re.findall(r"^mod (\w+);", src, re.M))
        for f in files:
            if f not in declared and os.path.basename(f)[:-3] not in modules:
                found.append(f"{f}: neither a [[test]] of its Cargo.toml nor a module of one "
                             "(autotests = false): it is never run")
    return binaries, found


def testing_doc_problems(tracked, doc="docs/testing.md"):
    """docs/testing.md against the tree: its counts of test files and binaries, and every
    integration test file named in it."""
    if not os.path.exists(doc):
        return []
    text = open(doc, encoding="utf-8").read()
    top = sorted(p for p in tracked if re.fullmatch(r"tests/[^/]+\.rs", p))
    tools = sorted(p for p in tracked if re.fullmatch(r"tools/[^/]+/tests/[^/]+\.rs", p))
    binaries, found = test_targets(tracked)

    def claim(pattern, actual, what):
        m = re.search(pattern, text)
        if not m:
            found.append(f"{doc}: no count of {what} (the check is stale)")
        elif int(m.group(1)) != actual:
            found.append(f"{doc}: says {m.group(1)} {what}, the tree has {actual}")
        return int(m.group(1)) if m else 0

    claim(r"the (\d+) files of `tests/`", len(top), "files in tests/")
    claim(r"The tools' integration tests \((\d+) files\)", len(tools), "tools' test files")
    claim(r"(\d+) integration test binaries", len(binaries), "integration test binaries")
    targets = re.search(r"unit tests of the (\d+) library and program targets", text)
    if targets:
        claim(r"(\d+) test binaries of the workspace", len(binaries) + int(targets.group(1)),
              "test binaries")
    found += [f"{doc}: {p} is not described" for p in top + tools if f"`{p}`" not in text
              and f"`{os.path.basename(p)}`" not in text]
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
    loops = import_cycles(rust)
    print(f"import cycles between files: {len(loops)}")
    for c in loops:
        print("  " + " <-> ".join(c))
    dead = link_problems(set(tracked))
    print(f"relative links in README.md and docs/ to no file or heading: {len(dead)}")
    for p in dead:
        print("  " + p)
    hygiene = hygiene_problems(tracked)
    print(f"symbolic links, #[path] outside a crate, issue numbers in code, options declared "
          f"twice: {len(hygiene)}")
    for p in hygiene:
        print("  " + p)
    testing = testing_doc_problems(tracked)
    print(f"test files never run, docs/testing.md counts and files not described: {len(testing)}")
    for p in testing:
        print("  " + p)
    long_docs = [(n, p, cap) for p, cap in DOC_LINES.items()
                 if (n := open(p, encoding="utf-8").read().count("\n")) > cap]
    print(f"docs over their length (README.md {DOC_LINES['README.md']}, performance.md and "
          f"evaluation.md {DOC_LINES['docs/performance.md']}): {len(long_docs)}")
    for n, p, cap in long_docs:
        print(f"  {n:5} {p} (at most {cap})")
    failed = doctest.testmod().failed
    broken = (long_fns or layers or loops or dead or hygiene or testing or failed or long_docs
              or any(p not in LONG_FILES for _, p in long_files))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that the Rust versions the project states are the true ones (run by .ci/run).

For every workspace member, its locked dependency graph (normal, build and dev dependencies:
the tests need them all; the workspace's own packages count with their `rust-version`) sets a
floor: the highest `rust-version` among those packages. The member's own code may need more
(damka uses `is_multiple_of` in const fns, stable since 1.87), so the check fails when
  - a member has no `rust-version`, or states one below its dependencies' floor, or
  - README.md's "Rust X or newer" differs from the highest `rust-version` of the workspace
    (what the README's test command, `cargo test --workspace`, needs), or
  - with `--build`: a member does not build (`cargo check --all-targets --locked`) with the
    toolchain of its own `rust-version`, installed by rustup (minimal profile) when missing.
    A toolchain that cannot be installed (no network) is reported and skipped.

Exit status 0 when all agree, 1 when one disagrees (each disagreement named), 2 when the
facts cannot be read. `--print` lists each member's version and the floor's package.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def version_key(text):
    """Comparable form of a version: 1.89 and 1.89.0 are the same."""
    return (tuple(int(part) for part in text.split(".")) + (0, 0, 0))[:3]


def same_version(a, b):
    return version_key(a) == version_key(b)


def metadata():
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        cwd=ROOT, capture_output=True, text=True,
    )
    if out.returncode != 0:
        sys.exit(f"rust_version: cargo metadata failed:\n{out.stderr}")
    return json.loads(out.stdout)


def member_minimums(meta):
    """(member name, its own rust-version, the minimum its dependencies need, the package
    that needs it) for every workspace member."""
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    rows = []
    for member in meta["workspace_members"]:
        seen, stack = set(), [member]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(dep["pkg"] for dep in nodes[node]["deps"])
        need, by = None, None
        for node in seen - {member}:
            version = packages[node].get("rust_version")
            if version and (need is None or version_key(version) > version_key(need)):
                need, by = version, packages[node]["name"]
        own = packages[member].get("rust_version")
        rows.append((packages[member]["name"], own, need, by))
    return rows


def build_with_own_versions(rows):
    """Checks each member with the toolchain of its own rust-version; the failures."""
    failures = []
    for name, own, _, _ in rows:
        toolchain = own if own.count(".") == 2 else own + ".0"
        have = subprocess.run(["rustup", "run", toolchain, "rustc", "--version"],
                              capture_output=True, text=True)
        if have.returncode != 0:
            got = subprocess.run(["rustup", "toolchain", "install", toolchain,
                                  "--profile", "minimal"], capture_output=True, text=True)
            if got.returncode != 0:
                print(f"rust_version: skipped building {name} with {toolchain}: "
                      f"the toolchain cannot be installed here")
                continue
        target = ROOT / "target" / f"rust-{toolchain}"
        built = subprocess.run(
            ["cargo", f"+{toolchain}", "check", "--locked", "--quiet", "-p", name,
             "--all-targets", "--target-dir", str(target)],
            cwd=ROOT, capture_output=True, text=True,
        )
        if built.returncode != 0:
            tail = "\n".join(built.stderr.strip().splitlines()[-15:])
            failures.append(f"{name} does not build with Rust {toolchain}, its rust-version:\n{tail}")
        else:
            print(f"rust_version: {name} builds with Rust {toolchain}")
    return failures


def readme_version():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = set(re.findall(r"Rust (\d+\.\d+(?:\.\d+)?) or newer", text))
    return found


def main():
    rows = member_minimums(metadata())
    if "--print" in sys.argv:
        for name, own, need, by in rows:
            print(f"{name}: rust-version {own}, dependencies need {need} ({by})")
    failures = []
    for name, own, need, by in rows:
        if need is None:
            continue
        if own is None:
            failures.append(f"{name}: no rust-version in its Cargo.toml ({by} needs {need})")
        elif version_key(own) < version_key(need):
            failures.append(f"{name}: rust-version {own}, but its locked dependencies need {need} ({by})")
    workspace_need = max((own for _, own, _, _ in rows if own), key=version_key, default=None)
    stated = readme_version()
    if workspace_need is not None:
        if not stated:
            failures.append(f'README.md: no "Rust X or newer" (the workspace needs {workspace_need})')
        for version in stated:
            if not same_version(version, workspace_need):
                failures.append(f"README.md says Rust {version} or newer, the workspace needs {workspace_need}")
    if "--build" in sys.argv and not failures:
        failures += build_with_own_versions(rows)
    for failure in failures:
        print(f"rust_version: {failure}")
    if failures:
        return 1
    print(f"rust_version: ok (workspace {workspace_need}; " +
          ", ".join(f"{name} {own}" for name, own, _, _ in rows) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that docs/API.md documents every public name of the headers, and nothing else.

  usage: api_reference.py SOURCE_DIR [--cc CC] [--cxx CXX] [--list]

The public names are taken from the headers as the compiler sees them: include/shmem.h and
include/shmemx.h are preprocessed as C11, include/ishmem/device.h (with shmem.h) as C++17, so
the typed families come out of the type tables exactly as the headers expand them. A name is
public when it is, in a file under include/:
  - a function named ishmem_*, ishmemx_*, shmem_*, shmemx_* (declared, defined or called), or a
    static inline function of a header outside include/ishmem/detail/ (start_pes, shmalloc);
  - a type named *_t with one of those prefixes;
  - a macro still defined at the end of the headers, other than internal ones (ISHMEMI_,
    ishmemi_, shmemi_), include guards and MPI's C++ switches; or an enumerator ISHMEM_*.
mpi.h is replaced by a stub of the two names the headers use, so no MPI is needed, and
ishmem/version.h is made from its template, as configure_file makes it.

docs/API.md documents a name with a list item that starts with code spans (continued on lines
indented by two spaces):
    - `ishmem_{RMA_TYPES}_{put,get}`, `ishmem_putmem`: what they do
Inside a span, {a,b,c} stands for each alternative (one may be empty) and {TABLE}, one upper
case word, for each name of the type table ISHMEMX_TABLE of include/ishmem/types.h
(ISHMEMX_SIZED_RMA gives the bit counts). shmem_X, shmemx_X, SHMEM_X, SHMEMX_X and _SHMEM_X
are covered by the documented ishmem_X, ishmemx_X, ISHMEM_X or ISHMEMX_X they map to (the
mapping is stated once in API.md); names with no such counterpart are listed themselves.
Exits 1, naming each public name left undocumented and each documented name that does not
exist. --list prints the public names instead.
"""
import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

INTERNAL = re.compile(r"(ISHMEMI|ishmemi|shmemi)_")
PREFIXED = re.compile(r"(ishmemx?|shmemx?)_\w")
MPI_STUB = "typedef int MPI_Comm;\ndouble MPI_Wtime(void);\n"
C_UNIT = "#include <shmem.h>\n#include <shmemx.h>\n"
CXX_UNIT = "#include <ishmem/device.h>\n#include <ishmem/device_sync.h>\n" + C_UNIT


def preprocess(compiler, language_flags, unit, include, stub_dir):
    """The unit preprocessed with its #define and #undef lines kept (-dD)."""
    command = [compiler] + language_flags + ["-E", "-dD", "-I", stub_dir, "-I", include, "-"]
    run = subprocess.run(command, input=unit, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("api_reference: %s failed:\n%s" % (" ".join(command), run.stderr))
    return run.stdout


def write_stubs(include, stub_dir):
    """mpi.h, and ishmem/version.h from its template (configure_file writes it in a build)."""
    with open(os.path.join(stub_dir, "mpi.h"), "w") as f:
        f.write(MPI_STUB)
    os.makedirs(os.path.join(stub_dir, "ishmem"))
    with open(os.path.join(include, "ishmem", "version.h.in")) as f:
        text = f.read()
    text = re.sub(r"@\w+@", "0", re.sub(r'"@\w+@"', '"0.0.0"', text))
    with open(os.path.join(stub_dir, "ishmem", "version.h"), "w") as f:
        f.write(text)


def scan(output, roots, names, macros):
    """Adds the public functions, types and enumerators of one preprocessed unit to `names`
    and its macros still defined at the end to `macros` (name -> (function-like, body))."""
    detail = os.path.join(roots[0], "ishmem", "detail") + os.sep
    current, defined, enum_code = None, {}, []
    for line in output.split("\n"):
        marker = re.match(r'# \d+ "([^"]*)"', line)
        if marker:
            current = os.path.realpath(marker.group(1))
            continue
        if not current or not current.startswith(tuple(root + os.sep for root in roots)):
            continue
        define = re.match(r"#define (\w+)(\(?)(.*)", line)
        if define:
            defined[define.group(1)] = (bool(define.group(2)), define.group(3).strip())
            continue
        undef = re.match(r"#undef (\w+)", line)
        if undef:
            defined.pop(undef.group(1), None)
            continue
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
        for name in re.findall(r"(?<![\w:.>])([A-Za-z_]\w*)\s*\(", code):
            if PREFIXED.match(name) and not name.endswith("_t"):
                names.add(name)
        for name in re.findall(r"\b(\w+_t)\b", code):
            if PREFIXED.match(name):
                names.add(name)
        if not current.startswith(detail):  # detail/'s C++ enums are internal
            enum_code.append(code)
            for name in re.findall(r"\binline\s+[\w\s*]*?\b(\w+)\s*\(", code):
                names.add(name)
    for body in re.findall(r"\benum\s*\w*\s*\{([^}]*)\}", " ".join(enum_code)):
        for enumerator in body.split(","):
            name = re.match(r"\s*(\w+)", enumerator)
            if name:
                names.add(name.group(1))
    macros.update(defined)


def public_macros(macros):
    """The macros that are part of the API."""
    out = set()
    for name, (function_like, body) in macros.items():
        if INTERNAL.match(name) or name in ("OMPI_SKIP_MPICXX", "MPICH_SKIP_MPICXX"):
            continue
        if not function_like and body == "" and name.endswith("_H"):
            continue  # an include guard
        out.add(name)
    return out


def type_tables(macros):
    """ISHMEMX_<TABLE>(X) -> the first or second arguments of its X entries, expanded."""
    bodies = {n[len("ISHMEMX_"):]: b[len("X)"):] for n, (f, b) in macros.items()
              if f and n.startswith("ISHMEMX_") and b.startswith("X)")}

    def expand(table, seen=()):
        if table in seen:
            sys.exit("api_reference: type table %s includes itself" % table)
        names = []
        for nested, first, second in re.findall(
                r"ISHMEMX_(\w+)\(X\)|\bX\(([^,()]+),\s*([^()]+?)\)", bodies[table]):
            if nested:
                names += expand(nested, seen + (table,))
            else:
                names.append(first.strip() if table == "SIZED_RMA" else second.strip())
        return names

    return {table: expand(table) for table in bodies}


def expand_pattern(pattern, tables, where):
    """The names a documented pattern stands for."""
    parts = re.split(r"(\{[^{}]*\})", pattern)
    choices = []
    for part in parts:
        if part.startswith("{"):
            inner = part[1:-1]
            if re.fullmatch(r"[A-Z][A-Z0-9_]*", inner):
                if inner not in tables:
                    sys.exit("api_reference: %s: no type table ISHMEMX_%s" % (where, inner))
                choices.append(tables[inner])
            else:
                choices.append(inner.split(","))
        else:
            choices.append([part])
    return {"".join(c) for c in itertools.product(*choices)}


def documented_names(path, tables):
    """name -> line of docs/API.md for every name its entries stand for."""
    out = {}
    items = []  # (first line number, the item's text with its indented continuation lines)
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if re.match(r"[-*] ", line):
                items.append((number, line.strip()))
            elif items and line.startswith("  ") and line.strip() and items[-1][0] > 0:
                items[-1] = (items[-1][0], items[-1][1] + " " + line.strip())
            else:
                items.append((0, ""))  # ends the item before it
    for number, line in items:
        if number:
            entry = re.match(r"[-*] ((?:`[^`]+`(?:, | or | and |/)?)+)", line)
            if not entry:
                continue
            for pattern in re.findall(r"`([^`]+)`", entry.group(1)):
                pattern = re.sub(r"\(.*\)$", "", pattern.strip())  # `name(args)` or `name()`
                if not re.fullmatch(r"[\w{},]+", pattern):
                    continue
                for name in expand_pattern(pattern, tables, "%s:%d" % (path, number)):
                    out.setdefault(name, number)
    return out


def counterpart(name):
    """The ishmem name that a shmem.h/shmemx.h name maps to, or None."""
    match = re.fullmatch(r"(_?)(shmem|SHMEM)(x|X)?(_\w+)", name)
    if not match:
        return None
    prefix = "ishmem" if match.group(2) == "shmem" else "ISHMEM"
    return prefix + (match.group(3) or "") + match.group(4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source_dir")
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    include = os.path.realpath(os.path.join(args.source_dir, "include"))
    names, macros = set(), {}
    with tempfile.TemporaryDirectory() as stub_dir:
        stub_dir = os.path.realpath(stub_dir)
        roots = (include, os.path.join(stub_dir, "ishmem"))  # version.h is public
        write_stubs(include, stub_dir)
        for compiler, flags, unit in ((args.cc, ["-x", "c", "-std=c11"], C_UNIT),
                                      (args.cxx, ["-x", "c++", "-std=c++17"], CXX_UNIT)):
            scan(preprocess(compiler, flags, unit, include, stub_dir), roots, names, macros)
    names |= public_macros(macros)
    if args.list:
        print("\n".join(sorted(names)))
        return 0
    api_md = os.path.join(args.source_dir, "docs", "API.md")
    documented = documented_names(api_md, type_tables(macros))
    missing = []
    for name in sorted(names):
        if name in documented:
            continue
        if counterpart(name) in documented:
            continue
        missing.append(name)
    stale = sorted((line, name) for name, line in documented.items() if name not in names)
    for name in missing:
        print("docs/API.md: public name not documented: %s" % name)
    for line, name in stale:
        print("docs/API.md:%d: documented name not in the headers: %s" % (line, name))
    print("api_reference: %d public names, %d documented, %d missing, %d stale" %
          (len(names), len(documented), len(missing), len(stale)))
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks that docs/ERRORS.md describes every status code and every message the library makes.

  usage: error_messages.py SOURCE_DIR [--list]

What must appear in docs/ERRORS.md (whitespace runs count as one space):
  - each status code (ISHMEM_SUCCESS, ISHMEM_ERR_* of any header under include/), as a heading
    of its own, ### `ISHMEM_...`, whose text starts with the code's value ("-4: ...") and says
    what it means and what to do, and, for an error, a section of its messages whose heading
    ends with the code: ### Out of memory (`ISHMEM_ERR_NOMEM`);
  - each message format, the string literals of a fail(CODE, "...") or log(LogLevel::..., "...")
    call in lib/ joined together, with \\" and \\\\ read as " and \\ (macros between literals,
    such as a vendor prefix, are left out: "MemMap failed" is found in "cuMemMap failed");
    formats without a word in them ("%s") carry a message made elsewhere and are skipped;
  - each checked call, in backquotes: ISHMEMI_CHECK_SYS(munmap(...)) as `munmap`,
    ISHMEMI_CHECK_MPI(MPI_Put(...)) as `MPI_Put`, fail_errno("mmap (x)", ...) and
    fail_mpi(rc, "MPI_X", ...) as `mmap (x)` and `MPI_X`, ISHMEMI_GPU(SetDevice, ...) as
    `cudaSetDevice` and ISHMEMI_VMM(driver, MemMap, ...) as `cuMemMap`.
Prints each one missing with the file and line that makes it; exits 1 if any is missing.
--list prints every extracted item instead.
"""
import os
import re
import sys

SKIPPED_FILES = {"lib/common/error.h", "lib/common/error.cpp"}  # fail() itself
SOURCE_EXTENSIONS = (".h", ".cpp", ".cu", ".cuh")


def strip_comments(text):
    """Blanks out comments (keeping newlines, so line numbers hold) but not string contents."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def call_arguments(text, start):
    """The top-level arguments of the call whose '(' is at text[start], as source strings."""
    args, depth, i, begin = [], 0, start, start + 1
    while i < len(text):
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < len(text) and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[begin:i].strip())
                return args
        elif c == "," and depth == 1:
            args.append(text[begin:i].strip())
            begin = i + 1
        i += 1
    return args


LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def format_of(arg):
    """The joined string literals of a format argument, or None if it has none."""
    parts = LITERAL.findall(arg)
    if not parts:
        return None
    text = "".join(parts)
    return re.sub(r"\\(.)", lambda m: m.group(1), text)


def called_name(arg):
    """`munmap` of 'munmap(base, bytes)'; None if the argument is not a call."""
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_:]*)\s*\(", arg)
    return m.group(1).split("::")[-1] if m else None


CALL = re.compile(r"\b(fail|log|fail_errno|fail_mpi|ISHMEMI_CHECK_SYS|ISHMEMI_CHECK_MPI|"
                  r"ISHMEMI_GPU|ISHMEMI_VMM)\s*\(")


def extract(root):
    """Yields (where, kind, required text) for each message site under lib/."""
    for top, dirs, files in os.walk(os.path.join(root, "lib")):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(SOURCE_EXTENSIONS):
                continue
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root)
            if rel in SKIPPED_FILES:
                continue
            with open(path, encoding="utf-8") as f:
                text = strip_comments(f.read())
            for m in CALL.finditer(text):
                line_start = text.rfind("\n", 0, m.start()) + 1
                if text[line_start:m.start()].lstrip().startswith("#define"):
                    continue
                where = "%s:%d" % (rel, text.count("\n", 0, m.start()) + 1)
                what = m.group(1)
                args = call_arguments(text, m.end() - 1)
                if what in ("fail", "log"):
                    if len(args) < 2 or (what == "log" and not args[0].startswith("LogLevel::")):
                        continue
                    fmt = format_of(args[1])
                    if fmt is None or not re.search(r"[A-Za-z]{2}", re.sub(r"%[-+ #0-9.]*[a-z]+",
                                                                           "", fmt)):
                        continue
                    yield where, "%s(%s)" % (what, args[0]), fmt
                elif what in ("fail_errno", "fail_mpi"):
                    fmt = format_of(args[0 if what == "fail_errno" else 1]) if args else None
                    if fmt:
                        yield where, what, "`%s`" % fmt
                elif what in ("ISHMEMI_CHECK_SYS", "ISHMEMI_CHECK_MPI"):
                    called = called_name(args[0]) if args else None
                    if called:
                        yield where, what, "`%s`" % called
                elif what == "ISHMEMI_GPU" and args:
                    yield where, what, "`cuda%s`" % args[0]
                elif what == "ISHMEMI_VMM" and len(args) > 1:
                    yield where, what, "`cu%s`" % args[1]


def status_codes(root):
    """(code, value) of every ISHMEM_SUCCESS and ISHMEM_ERR_* enumerator of the headers."""
    codes = []
    for top, dirs, files in os.walk(os.path.join(root, "include")):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".h"):
                continue
            with open(os.path.join(top, name), encoding="utf-8") as f:
                header = strip_comments(f.read())
            codes += re.findall(r"\b(ISHMEM_(?:SUCCESS|ERR_[A-Z_]+))\s*=\s*(-?\d+)", header)
    return codes


def status_problems(doc, codes):
    """What docs/ERRORS.md lacks for each status code: a heading '### `CODE`' whose text starts
    with the code's value ('-4: ...', then what it means and what to do) and, for an error, a
    section of its messages, '### Title (`CODE`)'."""
    problems = []
    sections = re.split(r"^(#+ .*)$", doc, flags=re.M)
    headings = {sections[i].lstrip("#").strip(): sections[i + 1].strip()
                for i in range(1, len(sections) - 1, 2)}
    for code, value in codes:
        body = headings.get("`%s`" % code)
        if body is None:
            problems.append("status code %s has no heading '### `%s`'" % (code, code))
        elif not body.startswith("%s:" % value) or len(body.split()) < 6:
            problems.append("the text under '### `%s`' does not start with its value '%s:' and "
                            "say what it means and what to do" % (code, value))
        if code != "ISHMEM_SUCCESS" and not any(h.endswith("(`%s`)" % code) for h in headings):
            problems.append("status code %s has no section of its messages, '### ... (`%s`)'" %
                            (code, code))
    return problems


def squeeze(text):
    return re.sub(r"\s+", " ", text)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    sites = list(extract(root))
    if "--list" in sys.argv[2:]:
        for where, kind, required in sites:
            print("%s\t%s\t%s" % (where, kind, required))
        return 0
    doc_path = os.path.join(root, "docs", "ERRORS.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    flat = squeeze(doc)
    bad = 0
    codes = status_codes(root)
    if len(codes) < 5:
        print("include/: found no status codes (ISHMEM_SUCCESS, ...): wrong directory?")
        return 1
    for problem in status_problems(doc, codes):
        print("docs/ERRORS.md: %s" % problem)
        bad += 1
    if len(sites) < 50:
        print("only %d message sites found under %s/lib: wrong directory?" % (len(sites), root))
        return 1
    for where, kind, required in sites:
        if squeeze(required) not in flat:
            print("%s: %s message not in docs/ERRORS.md: %s" % (where, kind, required))
            bad += 1
    if bad:
        print("%d item(s) missing from docs/ERRORS.md (see tests/error_messages.py for the rules)" %
              bad)
        return 1
    print("ok: %d status codes and %d message sites are described in docs/ERRORS.md" %
          (len(codes), len(sites)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

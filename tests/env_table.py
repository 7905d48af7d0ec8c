#!/usr/bin/env python3
"""Checks that README.md's table of ISHMEM_* variables is the one `ishmem-info --env-markdown`
prints from the config table (lib/common/config.h, which owns the meanings), or rewrites it.

  usage: env_table.py [SOURCE_DIR [ISHMEM_INFO]] [--write]
          (defaults: the current directory and SOURCE_DIR/build/lib/ishmem-info)

The table is the text between the lines <!-- env-table:begin --> and <!-- env-table:end --> of
README.md. Without --write, prints a diff and exits 1 when they differ; with --write, replaces
it (edit the meanings in lib/common/config.h, rebuild ishmem-info, then run with --write).
"""
import difflib
import os
import subprocess
import sys

BEGIN = "<!-- env-table:begin -->\n"
END = "<!-- env-table:end -->\n"


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    if len(args) > 2 or any(a.startswith("-") for a in args):
        sys.exit(__doc__)
    source_dir = args[0] if args else "."
    ishmem_info = args[1] if len(args) > 1 else os.path.join(source_dir, "build", "lib",
                                                             "ishmem-info")
    run = subprocess.run([ishmem_info, "--env-markdown"], capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.startswith("| variable |"):
        sys.exit("env_table: %s --env-markdown failed (exit %d):\n%s%s" %
                 (ishmem_info, run.returncode, run.stdout, run.stderr))
    generated = run.stdout
    readme_path = os.path.join(source_dir, "README.md")
    with open(readme_path) as f:
        readme = f.read()
    if readme.count(BEGIN) != 1 or readme.count(END) != 1 or readme.index(BEGIN) > readme.index(END):
        sys.exit("env_table: README.md needs one %s followed by one %s" % (BEGIN.strip(), END.strip()))
    head, rest = readme.split(BEGIN)
    current, tail = rest.split(END)
    if current == generated:
        print("env_table: README.md's table matches ishmem-info --env-markdown (%d variables)" %
              (generated.count("\n") - 2))
        return 0
    if "--write" in sys.argv[1:]:
        with open(readme_path, "w") as f:
            f.write(head + BEGIN + generated + END + tail)
        print("env_table: README.md's table rewritten")
        return 0
    sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), generated.splitlines(True),
                                               "README.md", "ishmem-info --env-markdown"))
    print("env_table: README.md's table differs from the config table; run\n"
          "  python3 tests/env_table.py %s %s --write" % (source_dir, ishmem_info))
    return 1


if __name__ == "__main__":
    sys.exit(main())

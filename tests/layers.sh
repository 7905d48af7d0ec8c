#!/bin/sh
# Checks the layer rule of docs/ARCHITECTURE.md: a file of lib/<layer>/ includes headers of its
# own layer, of the layers below it that the table names, and the public headers; a public
# header includes only public headers. Lists every include that climbs.
#   usage: layers.sh SOURCE_DIR
set -eu
root=$1
allowed() {  # the layers a layer may include, besides itself and the public headers
  case $1 in
    common) echo "" ;;
    backend | bootstrap | transport) echo "common" ;;
    device) echo "backend common" ;;
    heap) echo "backend bootstrap transport common" ;;
    runtime) echo "heap device backend bootstrap transport common" ;;
    api) echo "runtime heap device backend bootstrap transport common" ;;
    tools) echo "runtime heap device backend bootstrap transport common" ;;
    *) echo "UNKNOWN" ;;
  esac
}
bad=0 checked=0
for file in $(cd "$root" && find lib include -name '*.h' -o -name '*.cpp' -o -name '*.cu'); do
  case $file in
    include/*) layer=public ;;
    lib/*/*) layer=$(echo "$file" | cut -d/ -f2) ;;
    *) continue ;;
  esac
  ok=$(allowed "$layer")
  if [ "$ok" = UNKNOWN ] && [ "$layer" != public ]; then
    echo "$file: layer '$layer' is not in the table (tests/layers.sh, docs/ARCHITECTURE.md)"
    bad=1
    continue
  fi
  for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$file"); do
    checked=$((checked + 1))
    case $inc in ishmem.h | ishmem/*) continue ;; esac  # public headers
    top=${inc%%/*}
    [ "$top" = "$inc" ] && continue  # a file beside it
    if [ "$layer" = public ]; then
      echo "$file includes \"$inc\": public headers include only public headers"
      bad=1
      continue
    fi
    [ "$top" = "$layer" ] && continue
    case " $ok " in *" $top "*) continue ;; esac
    echo "$file includes \"$inc\": $layer may include only: ${ok:-nothing below it}"
    bad=1
  done
done
[ "$checked" -gt 50 ] || { echo "only $checked includes found under $root: wrong directory?"; exit 1; }
[ $bad -eq 0 ] && echo "ok: $checked includes follow the layers"
exit $bad

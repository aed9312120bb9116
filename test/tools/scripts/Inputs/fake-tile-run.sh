#!/bin/sh
# A stand-in for a tile-run binary (fake-tile-run-old and -new run it with
# AB_SIDE and AB_TIMES set): logs its side, kernel cache and arguments to
# $AB_LOG and writes --times with $AB_TIMES (ms); a kernel named fail.tile
# fails.
times_file=
prev=
for arg in "$@"; do
  [ "$prev" = --times ] && times_file=$arg
  prev=$arg
done
echo "$AB_SIDE $TILE_CACHE_DIR $*" >> "$AB_LOG"
case "$1" in *fail.tile) echo "error: fail.tile" >&2; exit 1 ;; esac
{ echo "# ms"; for t in $AB_TIMES; do echo "$t"; done; } > "$times_file"

#!/bin/sh
# Makes the PNG and ICO fallbacks of icon.svg: favicon.ico (16, 32, 48 px),
# apple-touch-icon.png and the web app manifest's icons. Run it after
# changing icon.svg and commit what it writes:
#   apt-get install librsvg2-bin icoutils optipng && sh static/icons.sh
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A full-bleed square for the icons that the system crops to its own shape
# (maskable, Apple's); the seeds sit inside the maskable safe zone.
sed 's/ rx="14"//' icon.svg >"$tmp/square.svg"
png() { rsvg-convert -w "$2" -h "$2" -o "$3" "$1" && optipng -quiet -o7 -strip all "$3"; }
png icon.svg 192 icon-192.png
png icon.svg 512 icon-512.png
png "$tmp/square.svg" 512 icon-maskable-512.png
png "$tmp/square.svg" 180 apple-touch-icon.png
for s in 16 32 48; do png icon.svg $s "$tmp/$s.png"; done
icotool -c -o favicon.ico -r "$tmp/16.png" -r "$tmp/32.png" -r "$tmp/48.png"

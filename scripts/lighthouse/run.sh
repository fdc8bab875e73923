#!/usr/bin/env bash
# Lighthouse scores (performance, accessibility, best practices, SEO) of
# pages of a running site, on a phone and on a desktop, with Debian's
# chromium headless. Needs Node and the pinned lighthouse from npm:
#   npm install --prefix /tmp/lh lighthouse@13.5.0
#   scripts/lighthouse/run.sh http://127.0.0.1:8080 /en/ /en/rules
# Prints one line a page and form factor; the JSON reports stay in $OUT
# (default a new temporary folder).
set -euo pipefail
base=${1:?usage: run.sh BASE-URL PATH...}
shift
lh=${LIGHTHOUSE:-/tmp/lh/node_modules/.bin/lighthouse}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking"
printf '%-40s %-8s %5s %5s %5s %5s\n' page form perf a11y best seo
for path in "$@"; do
	for form in mobile desktop; do
		preset=()
		[ "$form" = desktop ] && preset=(--preset=desktop)
		file="$out/$(echo "$path" | tr -c 'a-zA-Z0-9\n' _)-$form.json"
		CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} "$lh" "$base$path" "${preset[@]}" \
			--chrome-flags="$flags" --output=json --output-path="$file" --quiet
		python3 - "$file" "$path" "$form" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["categories"]
s = [round(c[k]["score"] * 100) for k in ("performance", "accessibility", "best-practices", "seo")]
print("%-40s %-8s %5d %5d %5d %5d" % (sys.argv[2], sys.argv[3], *s))
for k in ("performance", "accessibility", "best-practices", "seo"):
    for ref in c[k]["auditRefs"]:
        a = r["audits"][ref["id"]]
        if ref["weight"] > 0 and a["score"] is not None and a["score"] < 1:
            print("    %s: %s (%s)" % (k, a["id"], a.get("displayValue") or a["title"]))
PY
	done
done
echo "reports in $out"

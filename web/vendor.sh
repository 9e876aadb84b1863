#!/usr/bin/env bash
# Vendor the ipywidgets static-HTML bundle for the offline book.
#
# Installs the pinned npm packages (package-lock.json) into web/node_modules
# when it is missing or older than the lock file, then copies into
# _assets/widgets/ (generated, git-ignored; published by html_extra_path):
#   require.js    from requirejs
#   embed-amd.js  from @jupyter-widgets/html-manager (no chunk files), its Ajv told not to warn
#                 about the library's own schemas (see below)
#   the font/icon files that embed-amd.js references by hashed name
# Files in _assets/widgets/ that are not in that list are removed.
# Idempotent; prints nothing on success.
set -euo pipefail

web_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$web_dir")"
dest="$root_dir/_assets/widgets"
nm="$web_dir/node_modules"
stamp="$nm/.package-lock.json" # rewritten by every npm ci

if [[ ! -d "$nm" || ! -f "$stamp" || "$web_dir/package-lock.json" -nt "$stamp" ]]; then
  log="$(mktemp)"
  trap 'rm -f "$log"' EXIT
  if ! (cd "$web_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
    echo "vendor.sh: npm ci failed in $web_dir:" >&2
    cat "$log" >&2
    exit 1
  fi
  touch "$stamp"
fi

dist="$nm/@jupyter-widgets/html-manager/dist"
bundle="$dist/embed-amd.js"
[[ -f "$bundle" ]] || { echo "vendor.sh: missing $bundle" >&2; exit 1; }

# name -> source path
declare -A files=(
  [require.js]="$nm/requirejs/require.js"
  [embed-amd.js]="$bundle"
)
# Fonts/icons: webpack emits them as "<20 hex>.<ext>" next to the bundle.
while IFS= read -r f; do
  files[$f]="$dist/$f"
done < <(grep -oE '"[0-9a-f]{20}\.(woff2|woff|ttf|eot|svg|otf|png|gif)"' "$bundle" | tr -d '"' | sort -u)

mkdir -p "$dest"
# embed-amd.js compiles the widget-state schemas with Ajv's defaults (twice: in its page loader and
# in the HTMLManager module the in-page tables use), and Ajv's strict mode then logs a warning in
# the console about the schemas' union types. The compiled schemas are the library's own, so the
# bundle is copied with each of its two `new Ajv()` given {strictTypes: false}, which stops that
# warning and nothing else. The pattern is checked to match exactly twice: a new version of the
# bundle that does not stops here.
patched="$(mktemp)"
trap 'rm -f "$patched" ${log:+"$log"}' EXIT
ajv='=new\((\w+)\(\)\)([;,])(\w+=)?(\w+)\.compile\('
count="$(grep -oE "$ajv" "$bundle" | wc -l)"
if [[ "$count" != 2 ]]; then
  echo "vendor.sh: expected two 'new Ajv()' before the schema compiles in $bundle, found $count:" >&2
  echo "  check the strictTypes patch against this version of @jupyter-widgets/html-manager" >&2
  exit 1
fi
sed -E "s/$ajv/=new(\\1())({strictTypes:!1})\\2\\3\\4.compile(/g" "$bundle" >"$patched"
files[embed-amd.js]="$patched"

for name in "${!files[@]}"; do
  src="${files[$name]}"
  [[ -f "$src" ]] || { echo "vendor.sh: missing $src" >&2; exit 1; }
  if ! cmp -s "$src" "$dest/$name"; then
    cp "$src" "$dest/$name.tmp.$$"
    mv -f "$dest/$name.tmp.$$" "$dest/$name"
  fi
done

# Drop anything left over from an older version of the bundle.
for path in "$dest"/* "$dest"/.[!.]*; do
  [[ -e "$path" ]] || continue
  name="$(basename "$path")"
  [[ -n "${files[$name]+x}" ]] || rm -rf -- "$path"
done

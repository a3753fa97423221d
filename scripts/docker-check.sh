#!/usr/bin/env bash
# make docker-check: builds the Docker image (Dockerfile) for real, with podman,
# and checks it inside the build.
#
# There is no Docker engine here and `podman run` is refused (the sandbox
# blocks setrlimit), so the image is built with --build-arg CHECK=1: a RUN step,
# as the image's user, runs `make prove` and one `verify`, and a
# broken image fails the build.  The base image, Debian bookworm, is made with
# debootstrap from the Debian mirror apt already uses (no registry needed) and
# reused when it exists (localhost/debian:bookworm).
#
# Installs podman and debootstrap when missing (as root); otherwise says what
# to install and exits 3 (an infrastructure failure).  Prints how long each
# step took.
#
#   IMAGE=obligations  BASE_IMAGE=localhost/debian:bookworm  DEBIAN_MIRROR=URL
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/sbin:/sbin      # debootstrap, for users whose PATH lacks them

IMAGE=${IMAGE:-obligations}
BASE_IMAGE=${BASE_IMAGE:-localhost/debian:bookworm}
SUITE=bookworm
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

TIMINGS=() STEP="" STEP_START=0
record() { TIMINGS+=("$(printf '%-40s %5ss%s' "$STEP" "$(($(date +%s) - STEP_START))" "${1:-}")"); STEP=""; }
timed() {                       # timed NAME COMMAND...: runs it, records seconds
  STEP=$1 STEP_START=$(date +%s); shift
  echo "== docker-check: $STEP"
  "$@"
  record
}
report() {
  local rc=$?
  [ -n "$STEP" ] && record "  (failed)"
  if ((${#TIMINGS[@]})); then
    echo "== docker-check: timings"
    printf '   %s\n' "${TIMINGS[@]}"
  fi
  if [ "$rc" = 0 ]; then echo "== docker-check: passed"; else echo "== docker-check: FAILED (exit $rc)" >&2; fi
}
trap report EXIT

fail_infra() { echo "docker-check: $*" >&2; exit 3; }
is_root() { [ "$(id -u)" = 0 ]; }

# The Debian mirror apt uses here (deb822 .sources or one-line .list), else deb.debian.org.
apt_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    uri=$(awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f" |
          grep -E '^https?://.*/debian/?$' | head -n1 || true)
    [ -n "$uri" ] && { echo "${uri%/}"; return; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(sed -E 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" { print $2 }' |
          grep -E '^https?://.*/debian/?$' | head -n1 || true)
    [ -n "$uri" ] && { echo "${uri%/}"; return; }
  done
  echo "http://deb.debian.org/debian"
}

install_tools() {
  local missing=()
  command -v podman >/dev/null || missing+=(podman)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  if ((${#missing[@]} == 0)); then echo "podman and debootstrap are installed"; return; fi
  if ! is_root || ! command -v apt-get >/dev/null; then
    fail_infra "${missing[*]} missing. Install with: sudo apt-get install -y podman debootstrap"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq podman debootstrap >/dev/null
}

make_base() {
  if podman image exists "$BASE_IMAGE"; then
    echo "reusing $BASE_IMAGE"
    return
  fi
  is_root || fail_infra "making $BASE_IMAGE with debootstrap needs root (or: podman pull debian:$SUITE && podman tag debian:$SUITE $BASE_IMAGE)"
  local mirror=${DEBIAN_MIRROR:-$(apt_mirror)} root include=()
  # A minbase has no CA certificates: an https mirror (which debootstrap also
  # writes into the base's sources.list) needs them for apt inside the build.
  case "$mirror" in https://*) include=(--include=ca-certificates) ;; esac
  root=$(mktemp -d /var/tmp/docker-check-base.XXXXXX)
  echo "debootstrap --variant=minbase $SUITE from $mirror"
  if ! debootstrap --variant=minbase "${include[@]}" "$SUITE" "$root" "$mirror" >"$root.log" 2>&1; then
    tail -n 20 "$root.log" >&2
    rm -rf "$root" "$root.log"
    fail_infra "debootstrap failed (log above)"
  fi
  echo "base sources.list: $(cat "$root/etc/apt/sources.list")"
  tar -C "$root" -c . | podman import -q - "$BASE_IMAGE"
  rm -rf "$root" "$root.log"
}

# The build context: a snapshot of the files git tracks or would track (with the
# working tree's edits), so that `make test` may write in the repository (compiled
# theories, caches) while the image builds beside it (.ci/run runs the two at once).
# Outside a git checkout: the directory itself.
snapshot_context() {
  if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then echo "."; return; fi
  local dir
  dir=$(mktemp -d /var/tmp/docker-check-context.XXXXXX)
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -C "$dir" -xf -
  echo "$dir"
}

build_image() {
  local args=(--isolation=chroot --build-arg "BASE=$BASE_IMAGE" --build-arg CHECK=1 -t "$IMAGE") context rc=0
  # pip inside the build trusts what the host trusts (e.g. a TLS-inspecting
  # proxy's CA); a build secret, not kept in the image.
  [ -s "$CA_BUNDLE" ] && args+=(--secret "id=pip-cert,src=$CA_BUNDLE")
  context=$(snapshot_context)
  podman build "${args[@]}" "$context" || rc=$?
  [ "$context" = . ] || rm -rf "$context"
  return "$rc"
}

timed "install podman, debootstrap" install_tools
timed "base image $BASE_IMAGE" make_base
timed "podman build (CHECK=1)" build_image
podman images "$IMAGE"

#!/usr/bin/env bash
# Makes sure Coq 8.16 and the Coq libraries the project uses are installed.
# Installs them from Debian's packages when missing and running as root;
# otherwise says what to install and exits 3 (an infrastructure failure).
set -euo pipefail
PACKAGES="coq libcoq-interval libcoq-flocq libcoq-mathcomp-analysis"

have_coq() {
  command -v coqc >/dev/null && command -v coqchk >/dev/null &&
    [ -d "$(coqc -where)/user-contrib/Interval" ] &&
    [ -d "$(coqc -where)/user-contrib/mathcomp/analysis" ]
}

# One install at a time: CI starts one at its beginning and `make test` another beside its
# Python tests; the second waits for the first, then finds Coq installed.
lock="$(dirname "$0")/../build/install-coq.lock"
mkdir -p "$(dirname "$lock")"
exec 9> "$lock"
flock 9

if have_coq; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Coq from Debian's packages: $PACKAGES"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq $PACKAGES >/dev/null
  have_coq && exit 0
fi
echo "Coq is missing. Install it with: sudo apt-get install -y $PACKAGES" >&2
exit 3

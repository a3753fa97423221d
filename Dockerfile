# An image with Coq 8.16.1 (Debian bookworm's packages) and `obligations`
# installed; its default command certifies mechanisms/ (`make prove`).
#
#   docker build -t obligations .
#   docker run --rm -v "$PWD/certificates:/home/prover/obligations/certificates" obligations
#
# Build arguments:
#   BASE        the Debian bookworm image to start from (make docker-check uses
#               one made with debootstrap: localhost/debian:bookworm)
#   CHECK=1     prove two shipped specs with Coq and re-check one certificate
#               while building, so that a broken image fails the build
#   UID, GID    the ids of the user `prover` who owns the repository and runs
#               the proofs (build with --build-arg UID=$(id -u) to make a bind
#               mount of certificates/ writable without changing its mode)
# Build secret (optional): pip-cert, a CA bundle for pip (see below).
ARG BASE=debian:bookworm
FROM ${BASE}

# What the certificates were made with; the build fails on anything else.
ARG COQ_VERSION=8.16.1
ARG INTERVAL_VERSION=4.6.1
ARG ANALYSIS_VERSION=0.6.0

ENV DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1

# Coq and the libraries the project uses (as scripts/install-coq.sh), Python, make.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      coq libcoq-interval libcoq-flocq libcoq-mathcomp-analysis \
      python3 python3-venv make ca-certificates \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

RUN set -e; \
    coqc --version; \
    coq="$(coqc --print-version | cut -d' ' -f1)"; \
    [ "${coq}" = "${COQ_VERSION}" ] \
      || { echo "expected Coq ${COQ_VERSION}, got ${coq}" >&2; exit 1; }; \
    interval="$(dpkg-query -W -f='${Version}' libcoq-interval)"; \
    echo "libcoq-interval ${interval}"; \
    case "${interval}" in "${INTERVAL_VERSION}"-*) ;; \
      *) echo "expected Interval ${INTERVAL_VERSION}, got ${interval}" >&2; exit 1 ;; esac; \
    analysis="$(dpkg-query -W -f='${Version}' libcoq-mathcomp-analysis)"; \
    echo "libcoq-mathcomp-analysis ${analysis}"; \
    case "${analysis}" in "${ANALYSIS_VERSION}"-*) ;; \
      *) echo "expected mathcomp-analysis ${ANALYSIS_VERSION}, got ${analysis}" >&2; exit 1 ;; esac

ARG UID=1000
ARG GID=1000
# --non-unique: the ids may be taken already (e.g. GID=100, the group users).
RUN groupadd --non-unique --gid "${GID}" prover \
 && useradd --non-unique --uid "${UID}" --gid "${GID}" --create-home --shell /bin/bash prover

ENV HOME=/home/prover
WORKDIR /home/prover/obligations
RUN chown prover:prover /home/prover/obligations
USER prover

# pip reaches PyPI.  Where that goes through a TLS-inspecting proxy, pass a
# CA bundle as the build secret pip-cert (make docker-check passes the host's:
# --secret id=pip-cert,src=/etc/ssl/certs/ca-certificates.crt); it is used
# only while building and is not kept in the image.
#
# The Python dependencies first (from pyproject.toml alone), so that editing
# the code does not download them again.
COPY --chown=prover:prover pyproject.toml ./
RUN --mount=type=secret,id=pip-cert,mode=0444 \
    if [ -s /run/secrets/pip-cert ]; then export PIP_CERT=/run/secrets/pip-cert; fi \
 && python3 -m venv .venv \
 && .venv/bin/python -m pip install -q --upgrade pip \
 && python3 -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print("\n".join(p["dependencies"] + p["optional-dependencies"]["test"] + p["optional-dependencies"]["plot"] + p["optional-dependencies"]["lint"]))' > /tmp/requirements.txt \
 && .venv/bin/python -m pip install -q -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt

# The repository; then the package (editable, as `make venv` does) and theories/.
COPY --chown=prover:prover . ./
RUN --mount=type=secret,id=pip-cert,mode=0444 \
    if [ -s /run/secrets/pip-cert ]; then export PIP_CERT=/run/secrets/pip-cert; fi \
 && make venv theories \
 && .venv/bin/python -m pip freeze --exclude-editable

# With --build-arg CHECK=1, as the image's user: prove a finite table and a program
# for every stream length (the image's cache key is new, so Coq checks both), and
# re-check one certificate with coqc, coqchk and its assumption audit.  Not all of
# mechanisms/: that is `make prove`'s job (about 8 minutes of Coq), and the tests run
# outside the image (make test) with the same Python and Coq.
ARG CHECK=0
RUN if [ "${CHECK}" = 1 ]; then \
      set -e; \
      .venv/bin/python -m obligations prove mechanisms/randomized_response_eps1.yaml \
        mechanisms/above_threshold_all_k.yaml; \
      .venv/bin/python -m obligations verify certificates/randomized_response_eps1.json; \
      rm -rf build; \
    fi

CMD ["make", "prove"]

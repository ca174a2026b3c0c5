#!/usr/bin/env bash
# Installs the programs some tests drive, from Debian's packages, when they are missing:
# chromium and chromium-driver (the Task Center's browser tests), taskwarrior (the
# Taskwarrior round trip) and postgresql (the PostgreSQL store's tests, which start their
# own throwaway clusters with initdb; any cluster the package itself sets up is unused)
# and openssl (the certificates of the PostgreSQL TLS test).
# Without root or apt it says so and exits 0: those tests then report skipped.
set -uo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v task >/dev/null 2>&1 || missing+=(taskwarrior)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# Debian keeps initdb off PATH, in /usr/lib/postgresql/<version>/bin.
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && ! command -v initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-test-tools: not root or no apt-get; tests needing ${missing[*]} will report skipped" >&2
  exit 0
fi
echo "install-test-tools: installing ${missing[*]} (Debian packages)" >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
  echo "install-test-tools: the install failed; tests needing ${missing[*]} will report skipped" >&2
fi
exit 0

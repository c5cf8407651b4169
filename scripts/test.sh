#!/usr/bin/env bash
# Install what the whole test suite needs, then run it.
#   - Debian's chromium (the browser tests drive it with Playwright),
#     postgresql (the storage and cluster tests start a throw-away server)
#     and nginx (the shipped proxy configuration is tested), if missing;
#   - the project with its test extras and every optional part (room, dds, rl,
#     openspiel, arena);
# then pytest with any arguments given.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[[ -x /usr/sbin/nginx ]] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
if ((${#missing[@]})); then
  echo "installing system packages: ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python3 -m pip install --quiet -e '.[test,room,dds,rl,openspiel,arena]'
python3 -m pytest "$@"

#!/usr/bin/env bash
# Installs the Autobahn TestSuite, the WebSocket conformance suite, ported to Python 3, and prints the folder that
# holds its `wstest`. Everything comes from PyPI, pinned: the suite's source release (autobahntestsuite 25.10.1,
# still Python 2 code; its sha256 is checked) and, in a venv, requirements.txt (Twisted 24.3.0, autobahn 0.10.9,
# …). The suite is turned into Python 3 by lib2to3, then by py3-port.patch, written for this repository: text
# becomes bytes where the cases hand payloads to the protocol, events compare as bytes, 10.1.1 divides integers,
# unmasking is a fast XOR. The suite's licence: NOTICE beside this file.
#
# Cached between runs: the install lands in $BCSTREAM_CACHE/autobahn-<digest of this folder's inputs>
# (BCSTREAM_CACHE defaults to ${XDG_CACHE_HOME:-~/.cache}/bcstream), so a second run, or a fresh clone on the same
# machine, reuses it; a change to any of those three files installs anew. About a minute the first time.
#   setup.sh            install if needed; print the folder
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
suite_version=25.10.1
suite_sha256=b083d6e15330fc16f3e5f0975cce2b15f21bfa0c6db09547316b1852c6dbd6df
cache=${BCSTREAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bcstream}
digest=$(cat "$here/setup.sh" "$here/requirements.txt" "$here/py3-port.patch" | sha256sum | cut -c1-12)
dir="$cache/autobahn-$suite_version-$digest"
if [ -f "$dir/.installed" ] && [ -x "$dir/wstest" ]; then echo "$dir"; exit 0; fi

python3 -c 'import lib2to3' 2>/dev/null || {
    echo "autobahn setup: this python3 has no lib2to3 (removed in Python 3.13); the port needs Python 3.9-3.12" >&2
    exit 2
}
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
python3 -m venv venv
venv/bin/pip install -q --no-deps -r "$here/requirements.txt" >&2
# autobahn 0.10.9 under Python 3: integer division in sendFrame(payload_len=...).
sed -i 's|range(payload_len / len(payload))|range(payload_len // len(payload))|' \
    venv/lib/python3*/site-packages/autobahn/websocket/protocol.py

mkdir dl
venv/bin/pip download -q --no-deps "autobahntestsuite==$suite_version" -d dl >&2
echo "$suite_sha256  dl/autobahntestsuite-$suite_version.tar.gz" | sha256sum -c --quiet - >&2 || {
    echo "autobahn setup: the downloaded autobahntestsuite-$suite_version does not match its pinned sha256" >&2
    exit 2
}
tar xzf "dl/autobahntestsuite-$suite_version.tar.gz" -C dl
mkdir ats && cp -r "dl/autobahntestsuite-$suite_version/autobahntestsuite" ats/
(cd ats && python3 -W ignore -m lib2to3 -w -n autobahntestsuite >/dev/null 2>&1 \
   && find autobahntestsuite -name '*.py' -exec sed -i 's/\r$//' {} + \
   && patch -s -p1 < "$here/py3-port.patch")
cat > wstest <<W
#!/usr/bin/env bash
export PYTHONPATH="$dir/ats\${PYTHONPATH:+:\$PYTHONPATH}"
exec "$dir/venv/bin/python" -u -c "from autobahntestsuite import wstest; wstest.run()" "\$@"
W
chmod +x wstest
touch .installed
echo "$dir"

# Sourced by the run.sh of the suites that drive Debian's chromium (e2e/browser,
# e2e/cluster): checks DATABASE_URL and the server binary (`bin`), installs
# what is missing and sets `venv` to the Python environment with Selenium
# and websocket-client. Needs `root` (the repository).
browser_dir=$root/e2e/browser

# --- what make test hands over ---------------------------------------------
: "${DATABASE_URL:?DATABASE_URL must name the test database}"
bin=${MINDPAD_BIN:-$root/.build/debug/mindpad}
[ -x "$bin" ] || { echo "e2e: no server binary at $bin" >&2; exit 1; }

# --- system packages ---------------------------------------------------------
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || need+=(fonts-wqy-microhei)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
    echo "e2e: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi

# --- python environment ------------------------------------------------------
venv=$root/.venv-e2e
stamp=$venv/.requirements.sha256
want=$(sha256sum "$browser_dir/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "e2e: setting up $venv" >&2
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$browser_dir/requirements.txt"
    echo "$want" > "$stamp"
fi

# Sourced by ./stillwater, ./test.sh and .ci/run: sets JAVA_HOME to a JDK 21 or newer
# (JAVA_HOME if it is 21+, else the newest JDK under /usr/lib/jvm, else the java on PATH)
# and puts it first on PATH. Exits with a message when there is none.
# Prints the major version of the java in JDK dir $1, or nothing if it has none.
java_major() {
    local v
    [[ -x "$1/bin/java" ]] || return 0
    v=$("$1/bin/java" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }') || return 0
    case "$v" in
        1.*) v="${v#1.}"; echo "${v%%.*}" ;;
        "") ;;
        *) echo "${v%%[.+-]*}" ;;
    esac
}

find_jdk() {
    local m best="" best_major=0 dir java_bin
    if [[ -n "${JAVA_HOME:-}" ]]; then
        m=$(java_major "$JAVA_HOME")
        if [[ -n "$m" && "$m" -ge 21 ]]; then echo "$JAVA_HOME"; return 0; fi
    fi
    for dir in /usr/lib/jvm/*/; do
        dir="${dir%/}"
        [[ -L "$dir" ]] && continue # aliases of real JDK dirs
        m=$(java_major "$dir")
        if [[ -n "$m" && "$m" -gt "$best_major" ]]; then best="$dir"; best_major="$m"; fi
    done
    if [[ "$best_major" -ge 21 ]]; then echo "$best"; return 0; fi
    if java_bin=$(command -v java 2>/dev/null); then
        dir="$(dirname "$(dirname "$(readlink -f "$java_bin")")")"
        m=$(java_major "$dir")
        if [[ -n "$m" && "$m" -ge 21 ]]; then echo "$dir"; return 0; fi
    fi
    return 1
}

if ! JAVA_HOME="$(find_jdk)"; then
  echo "stillwater: no JDK 21 or newer found: set JAVA_HOME or install one under /usr/lib/jvm (e.g. apt-get install openjdk-21-jdk)" >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

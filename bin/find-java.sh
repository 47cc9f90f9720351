# Sourced by ./stillwater, ./test.sh and .ci/run: sets JAVA_HOME to a JDK 21 or newer.
# Uses $JAVA_HOME if it is 21+, else the newest JDK under /usr/lib/jvm.
java_major() { # prints the major version of the JDK at $1
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' | cut -d. -f1
}
find_java_home() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(java_major "$JAVA_HOME")" -ge 21 ] 2>/dev/null; then
    echo "$JAVA_HOME"; return 0
  fi
  local best="" best_v=0 v d
  for d in /usr/lib/jvm/*; do
    [ -x "$d/bin/java" ] && [ -x "$d/bin/javac" ] || continue
    v="$(java_major "$d")" || continue
    if [ -n "$v" ] && [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then best="$d"; best_v="$v"; fi
  done
  [ -n "$best" ] || return 1
  echo "$best"
}
if ! JAVA_HOME="$(find_java_home)"; then
  echo "stillwater: no JDK 21 or newer found (set JAVA_HOME, or install one under /usr/lib/jvm, e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+)" >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

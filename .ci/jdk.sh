# Sourced by .ci/run and the README's commands: pick Temurin 25 (with compact object headers)
# where it is installed, else keep the default JDK. The bytecode stays Java 17 either way.
if [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
  export PATH="$JAVA_HOME/bin:$PATH"
  export MAVEN_OPTS="${MAVEN_OPTS:-} -XX:+UseCompactObjectHeaders"
fi

#!/usr/bin/env bash
# No Docker engine runs on our machines: validate what can be validated
# without one. docker-compose parses and resolves the compose file; the
# Dockerfile must perform the same steps as `make run`.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
check() {
    if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=$((fail + 1)); fi
}
export MINDPAD_ADMIN_TOKEN=${MINDPAD_ADMIN_TOKEN:-compose-check}
check "docker-compose config parses" "docker-compose -f docker-compose.yml config -q"
config=$(docker-compose -f docker-compose.yml config)
check "postgres service uses postgres:16" "grep -q 'image: postgres:16' <<<\"\$config\""
check "postgres has a healthcheck" "grep -q 'pg_isready' <<<\"\$config\""
check "mindpad waits for a healthy database" "grep -q 'condition: service_healthy' <<<\"\$config\""
check "DATABASE_URL is wired" "grep -q 'DATABASE_URL: postgresql://' <<<\"\$config\""
check "a named volume holds the data" "grep -qE '^volumes:' <<<\"\$config\""
check "Dockerfile installs the three C libraries" "grep -q 'libwebsockets-dev' Dockerfile && grep -q 'libpq-dev' Dockerfile && grep -q 'libssl-dev' Dockerfile"
check "Dockerfile builds in release like make run" "grep -q 'swift build -c release --product mindpad' Dockerfile && grep -q 'swift build -c release --product mindpad' scripts/run.sh"
check "runtime image has the runtime libraries" "grep -q 'libwebsockets17' Dockerfile && grep -q 'libpq5' Dockerfile && grep -q 'libssl3' Dockerfile"
check "image ships migrations, web and model resources" "grep -q 'Migrations' Dockerfile && grep -q 'web' Dockerfile && grep -q 'resources' Dockerfile"
check "deps.sh installs the three C libraries' headers" "grep -q 'libssl-dev' scripts/deps.sh && grep -q 'libwebsockets-dev' scripts/deps.sh && grep -q 'libpq-dev' scripts/deps.sh"
check "no secret in the compose file" "! grep -qiE 'ADMIN_TOKEN: *[A-Za-z0-9]{8,}' docker-compose.yml"
# HAProxy (deploy/haproxy.cfg is the generator's output for compose; the
# tests and the bench generate theirs for loopback).
check "deploy/haproxy.cfg is what scripts/haproxy-config.sh makes" "diff -q <(scripts/haproxy-config.sh 3 8080 8080 'mindpad-i{i}') deploy/haproxy.cfg >/dev/null"
check "deploy/haproxy.cfg passes haproxy -c" "haproxy -c -q -f deploy/haproxy.cfg"
check "a generated loopback config passes haproxy -c" "haproxy -c -q -f <(HAPROXY_MAXCONN=1000 scripts/haproxy-config.sh 3 18081 18080)"
check "every instance has its use-server rule" "[ \$(grep -c '^    use-server i[0-9]* if { path /ws } { url_param(instance) -m str i[0-9]* }' deploy/haproxy.cfg) = 3 ]"
check "health checks on /healthz, persistence and redispatch" "grep -q 'option httpchk GET /healthz' deploy/haproxy.cfg && grep -q 'option persist' deploy/haproxy.cfg && grep -q 'option redispatch' deploy/haproxy.cfg && grep -q 'timeout tunnel' deploy/haproxy.cfg"
# The cluster profile: three instances with their ids and their own volumes,
# HAProxy with the committed config; the default profile untouched.
check "cluster profile: instances i1..i3, each its own data volume" "(for i in 1 2 3; do grep -q \"MINDPAD_INSTANCE: i\$i\" <<<\"\$config\" && grep -q \"mindpad-i\$i-data:/var/lib/mindpad\" <<<\"\$config\" || exit 1; done)"
check "cluster profile: HAProxy runs deploy/haproxy.cfg" "grep -q 'deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg' <<<\"\$config\""
check "only the cluster's four services have a profile" "[ \$(grep -c -- '- cluster' <<<\"\$config\") = 4 ] && [ \$(grep -c '^    profiles:' <<<\"\$config\") = 4 ]"
echo "$(( 20 - fail )) passed, $fail failed"
[ "$fail" -eq 0 ]

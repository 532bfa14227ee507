#!/usr/bin/env bash
# Sourced by the benchmark scripts of the device machine: bench_files FILE... sets the array
# `files` to the ground programs given, each .aspif.gz unpacked into /tmp/farm-bench first.
bench_files() {
    files=()
    local f g
    for f in "$@"; do
        case $f in
        *.gz) g=/tmp/farm-bench/$(basename "${f%.gz}"); mkdir -p /tmp/farm-bench; gunzip -c "$f" > "$g"; files+=("$g") ;;
        *) files+=("$f") ;;
        esac
    done
}

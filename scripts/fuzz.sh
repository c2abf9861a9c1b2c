#!/usr/bin/env bash
# Fuzzes Hark's parsers with cargo-fuzz (libFuzzer): the tracker search builder, the import
# formats and each connector's payload mapping (the crate in fuzz/, targets in fuzz/fuzz_targets).
# Each target runs for FUZZ_SECONDS, starting from its seed inputs (fuzz/seeds/<target>, copied
# into its working corpus fuzz/corpus/<target>). Exits 0 when no target failed, 1 when one did
# (a panic, a broken invariant, a crash, a timeout or running out of memory): the input that did
# it is in fuzz/artifacts/<target>/ and the command that replays it is printed.
#
# Toolchain: cargo-fuzz passes nightly-only rustc flags (-Zsanitizer=address among them); on the
# stable toolchain RUSTC_BOOTSTRAP=1 lets rustc accept them, so no nightly is needed.
# Sanitizer: AddressSanitizer (`-s address`, the cargo-fuzz default) works with RUSTC_BOOTSTRAP=1
# on stable (checked with Rust 1.95): the stable toolchain ships the ASan runtime, and the standard
# library need not be rebuilt for it. The targets are also built with debug assertions (`-a`), so
# integer overflow and the other debug checks panic and count as findings. FUZZ_SANITIZER=none
# builds without ASan: faster, and enough where no unsafe code runs (the code under test is safe
# Rust except the sentiment model's one unsafe block in hark-enrich, which no target reaches).
#
# cargo-fuzz is installed on first use (cargo install cargo-fuzz --locked, from crates.io).
#
# Settings (environment):
#   FUZZ_SECONDS    seconds per target (default 30)
#   FUZZ_TARGETS    the targets to run, separated by spaces (default: all of fuzz/fuzz_targets)
#   FUZZ_SANITIZER  address or none (default address)
#   FUZZ_FRESH      1: empty each target's working corpus first, so the run starts from the seeds
#                   alone (default 0: inputs found by earlier runs are kept)
#   FUZZ_BUILD      0: skip the build and run the binaries built before (default 1)
#   FUZZ_RSS_MB     memory limit of a target in MB (default 2048)
# Extra arguments are passed on to libFuzzer (e.g. -seed=1 -max_len=8192).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

FUZZ_SECONDS=${FUZZ_SECONDS:-30}
FUZZ_SANITIZER=${FUZZ_SANITIZER:-address}
FUZZ_FRESH=${FUZZ_FRESH:-0}
FUZZ_BUILD=${FUZZ_BUILD:-1}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-2048}
CARGO=${CARGO:-cargo}
export RUSTC_BOOTSTRAP=1

case $FUZZ_SANITIZER in
  address | none) ;;
  *) echo "FUZZ_SANITIZER must be address or none" >&2; exit 2 ;;
esac

if ! $CARGO fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz (cargo install cargo-fuzz --locked)" >&2
  $CARGO install cargo-fuzz --locked || { echo "cannot install cargo-fuzz" >&2; exit 2; }
fi

all_targets=$(cd fuzz/fuzz_targets && ls -- *.rs | sed 's/\.rs$//')
targets=${FUZZ_TARGETS:-$all_targets}
for t in $targets; do
  [ -f "fuzz/fuzz_targets/$t.rs" ] || { echo "no fuzz target '$t'; targets: $(echo $all_targets)" >&2; exit 2; }
done

build_flags=(-s "$FUZZ_SANITIZER" --debug-assertions)
if [ "$FUZZ_BUILD" != 0 ]; then
  echo "building the fuzz targets (${build_flags[*]})" >&2
  (cd fuzz && $CARGO fuzz build "${build_flags[@]}")
fi
triple=$(rustc -vV | sed -n 's/^host: //p')
bin_dir=$root/fuzz/target/$triple/release

# AddressSanitizer: leaks are not findings here (the targets keep nothing between runs), nor
# its one-definition-rule check, which trips over two static arrays of the same name in the SQLite
# amalgamation (linked through hark-store, never called by a target).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:detect_odr_violation=0}

failed=()
summary=()
for t in $targets; do
  bin=$bin_dir/$t
  [ -x "$bin" ] || { echo "no binary $bin: build first (FUZZ_BUILD=1)" >&2; exit 2; }
  corpus=fuzz/corpus/$t
  artifacts=fuzz/artifacts/$t
  if [ "$FUZZ_FRESH" = 1 ]; then rm -rf "$corpus"; fi
  mkdir -p "$corpus" "$artifacts"
  for seed in fuzz/seeds/"$t"/*; do
    if [ -f "$seed" ] && [ ! -e "$corpus/${seed##*/}" ]; then cp "$seed" "$corpus/"; fi
  done
  before=$(ls "$artifacts")
  log=fuzz/artifacts/$t.log
  echo "== $t: ${FUZZ_SECONDS}s" >&2
  status=0
  "$bin" "$corpus" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb="$FUZZ_RSS_MB" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  new=$(comm -13 <(echo "$before") <(ls "$artifacts") | sed '/^$/d')
  if [ "$status" = 72 ] && [ -z "$new" ]; then
    # libFuzzer's exit status when it was interrupted (SIGINT, SIGTERM): stop here.
    echo "!! $t was interrupted after ${runs:-?} runs; stopping" >&2
    exit 130
  fi
  if [ "$status" != 0 ] || [ -n "$new" ]; then
    failed+=("$t")
    summary+=("$(printf '%-24s FAILED (exit %s) after %s runs' "$t" "$status" "${runs:-?}")")
    echo "!! $t failed (exit $status); its output: $log" >&2
    grep -E -m 20 "panicked at|ERROR: |SUMMARY: |Test unit written" "$log" >&2 || tail -n 20 "$log" >&2
    for a in $new; do
      echo "   input: $artifacts/$a" >&2
      echo "   replay: ASAN_OPTIONS=$ASAN_OPTIONS $bin $artifacts/$a" >&2
      echo "       or: (cd fuzz && ASAN_OPTIONS=$ASAN_OPTIONS RUSTC_BOOTSTRAP=1 cargo fuzz run ${build_flags[*]} $t artifacts/$t/$a)" >&2
    done
  else
    summary+=("$(printf '%-24s ok: %s runs, %s/s' "$t" "${runs:-?}" "${rate:-?}")")
  fi
done

echo >&2
printf '%s\n' "${summary[@]}" >&2
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzzing found nothing in ${FUZZ_SECONDS}s per target" >&2

#!/usr/bin/env bash
# Checkouts for an A/B in bench:http (BENCH_REST_VARIANTS), one per NAME=SPEC, under DIR:
#   NAME=<revision>          that revision as it is (e.g. main=origin/main);
#   NAME=revert:<commit>...  HEAD with those commits reverted, in the order given (e.g. a removed
#                            workaround put back: docs/performance.md lists each one's commit).
# Each checkout is a `git archive` of a commit made in a scratch clone (this repository is not
# touched) with a hard-linked copy of this checkout's node_modules. Prints BENCH_REST_VARIANTS.
# Usage: BENCH_REST_VARIANTS="$(bench/ab-checkouts.sh /tmp/ab lean=revert:abc123)" npm run bench:http
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: bench/ab-checkouts.sh DIR NAME=REVISION|NAME=revert:COMMIT[,COMMIT...] ..." >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$1"
shift
mkdir -p "$dir"
head="$(git -C "$root" rev-parse HEAD)"
rm -rf "$dir/.repo"
git clone -q --no-checkout "$root" "$dir/.repo" >&2
repo="$dir/.repo"
git -C "$repo" config user.email ab@bench.invalid
git -C "$repo" config user.name bench-ab
json="{"
for pair in "$@"; do
  name="${pair%%=*}"
  spec="${pair#*=}"
  case "$name" in rest | bare | effect | restB | "") echo "ab-checkouts: \"$name\" is not a free name" >&2; exit 2 ;; esac
  if [[ "$spec" == revert:* ]]; then
    git -C "$repo" checkout -q --detach "$head"
    IFS=',' read -ra commits <<<"${spec#revert:}"
    for commit in "${commits[@]}"; do
      if ! git -C "$repo" revert --no-edit "$commit" >&2; then
        echo "ab-checkouts: $commit does not revert cleanly on HEAD; resolve it in $repo by hand" >&2
        exit 1
      fi
    done
    revision="$(git -C "$repo" rev-parse HEAD)"
  else
    revision="$(git -C "$root" rev-parse "$spec")"
  fi
  rm -rf "${dir:?}/$name"
  mkdir -p "$dir/$name"
  git -C "$repo" archive "$revision" | tar -x -C "$dir/$name"
  cp -al "$root/node_modules" "$dir/$name/node_modules"
  echo "ab-checkouts: $name is $(git -C "$repo" log --oneline -1 "$revision" | cut -c1-100)" >&2
  json="$json\"$name\":\"$dir/$name/apps/http/src/main.ts\","
done
echo "${json%,}}"

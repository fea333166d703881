# MindPad. The two commands that matter: `make run` and `make test`.
.PHONY: run test build release db-start db-stop migrate clean bench

run:            ## install what is missing, start PostgreSQL if needed, build, migrate, serve on :8080
	scripts/run.sh

test:           ## the same bootstrap with a throwaway database, then every test
	scripts/test.sh

bench:          ## every benchmark, side by side in one run -> docs/benchmarks.md (~20 min; BENCH_QUICK=1 for a short run)
	scripts/bench.sh

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

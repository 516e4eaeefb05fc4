# kubeloom — the two commands of the README are `make demo` and `make test`.
SHELL   := bash
GO      ?= go
BIN     := bin/kubeloom
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
# -s -w: no symbol table or DWARF (about a third smaller); stack traces,
# pprof and --go-trace still name every function (they use the pclntab).
LDFLAGS := -s -w -X main.version=$(VERSION)
DEMO_OUT := recordings/demo-informer-basics.jsonl

.PHONY: build assets demo test test-short bench lint fuzz docs docs-check-large docs-picture clean jaeger jaeger-build

build: ## build bin/kubeloom, showing which package it compiles (the first build compiles ~900: minutes on 2 cores)
	@echo "building $(BIN): a first build compiles client-go, OpenTelemetry and their ~900 packages (3-5 minutes on 2 cores); later builds take seconds"
	@set -o pipefail; total=$$($(GO) list -deps ./cmd/kubeloom | wc -l) && \
	$(GO) build -v -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/kubeloom 2>&1 | \
	awk -v total=$$total -v tty=$$([ -t 1 ] && echo 1) '\
		/^[^ #:]+$$/ { n++; \
			if (tty) printf "\r\033[K  compiling %d/%d %s", n, total, $$0; \
			else if (n % 100 == 0) printf "  compiled %d of %d packages\n", n, total; \
			fflush(); next } \
		{ if (tty && n) printf "\r\033[K"; print; fflush() } \
		END { if (tty && n) printf "\r\033[K"; if (n) printf "  compiled %d packages\n", n }'
	@echo "built $(BIN) ($$(du -h $(BIN) | cut -f1))"

assets: ## bundle the HTML timeline's ES modules (traces/htmlview/assets/js) into the scripts the binary embeds (assets/dist), with esbuild's Go API; commit them with the modules (TestBundlesAreUpToDate checks)
	$(GO) generate ./traces/htmlview

demo: build ## run the informer-basics lesson and replay it in the terminal
	$(BIN) run informer-basics --out $(DEMO_OUT)
	$(BIN) replay $(DEMO_OUT)

test: ## every test, with the race detector (what CI runs)
	@echo "go vet, then go test -race ./... (a first run compiles everything with the race detector: about 6 minutes on 2 cores)"
	@[ -n "$$KUBELOOM_ARTICLES" ] || echo "note: KUBELOOM_ARTICLES is not set, so the article quotes are not checked against the original articles (not in this repository; CI sets it)"
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

test-short: ## every test, without the race detector
	$(GO) test -count=1 ./...

# Runs as a user runs them (cmd/kubeloom: the built binary, in virtual time): every built-in
# (BenchmarkRun, 3 times each), 10, 100 and 1,000 kubelets for 10 simulated minutes
# (BenchmarkClusterScale, a few minutes at 1,000) and Ctrl-C in the 1,000-node burst. The live-mode
# and in-process benchmarks of sim/ and traces/ come first; BenchmarkScale100TracingOverhead, two
# live runs of 100 nodes, last.
bench: ## the performance benchmarks (cost per span side by side: recorder, SDK floor, stdouttrace, noop; one controller sync; cm-startup live across speeds; HTML first paint at 100k spans; every built-in as a user runs it; replay --summary, replay --latency and export --format html of 1M spans, diff of two of them; 10, 100 and 1,000 kubelets for 10 simulated minutes in virtual time, and Ctrl-C at 1,000; a 100-node run's tracing overhead; about 20 minutes, 4 GB of memory and 3 GB in $$TMPDIR)
	$(GO) test -run '^$$' -bench . -skip 'Scale100TracingOverhead' -benchmem ./sim/... ./traces/...
	$(GO) test -run '^$$' -bench '^BenchmarkRun$$' -benchtime 3x ./cmd/kubeloom
	$(GO) test -run '^$$' -bench 'ReplaySummary1M|ReplayLatency1M|ExportHTML1M|Diff1M' -benchtime 1x ./cmd/kubeloom
	$(GO) test -run '^$$' -bench 'ClusterScale' -benchtime 1x -timeout 60m ./cmd/kubeloom
	$(GO) test -run '^$$' -bench 'Scale100TracingOverhead' -benchtime 1x -benchmem ./sim/engine

# staticcheck is a tool of its own small module, tools/lint/go.mod (docs/design.md, "Lint"): its
# version and its dependencies' are pinned there with their checksums, and `go tool` builds it
# once into Go's build cache. A deliberate exception is a //lint:ignore CHECK reason comment.
lint: ## gofmt, go vet and staticcheck must be clean (on a cold cache about 6 minutes on 2 cores: go vet compiles every package, which make test then finds done, and staticcheck is built once, a minute; then 3 seconds)
	@test -z "$$(gofmt -l .)" || { echo "gofmt would change:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	$(GO) tool -modfile=tools/lint/go.mod staticcheck ./...

fuzz: ## run each fuzz target for a million executions, the regression cases of hostile files among their seeds (minimizing is capped: the seeds are large); about 20 minutes each on 2 cores
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 1000000x -fuzzminimizetime 100x ./scenarios
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime 1000000x -fuzzminimizetime 100x ./traces

docs: ## regenerate the docs written from the code (docs/cli.md, docs/goroutines.md, docs/zh/) and the figures of a run the docs state (docs/figures_test.go)
	$(GO) test ./cmd/kubeloom -run 'TestGeneratedDocsAreUpToDate' -count=1 -args -update
	$(GO) test ./docs -run 'TestFigures' -count=1 -args -update

docs-check-large: ## check the figures of docs/scale.md against a run of cluster-scale, the large built-in, and that three runs of it repeat, without the race detector (make test skips reading its 1.5 GB recordings under -race, which takes ten times the CPU and memory)
	$(GO) test ./docs -run 'TestFigures' -count=1 -args -only=docs/scale.md,docs/zh/scale.md,scenarios/builtin/cluster-scale.yaml
	$(GO) test ./cmd/kubeloom -run 'TestSameRunEveryTime/cluster-scale' -count=1

docs-picture: ## retake the HTML timeline's screenshots in docs/images (cm-leader-failover and cluster-basics at 1280x720 and 1920x1080; the README shows one, README.zh.md the same in Chinese) and timeline.json beside them, kubeloom diff's page (kubelet-startup classic vs modern, docs/diff.md) and kubeloom serve's (docs/serve.md) (needs Chromium and a CJK font, e.g. Debian's fonts-noto-cjk)
	CI=true $(GO) test ./traces/htmlview -run 'TestBrowserScenarios$$|TestBrowserDiff$$' -count=1 -args -update
	CI=true $(GO) test ./serve -run 'TestLiveClassroom$$' -count=1 -args -update

clean:
	rm -rf bin

jaeger-build: ## build Jaeger from tools/go.mod into Go's build cache (minutes the first time, then cached); the Jaeger tests use it
	@echo "building Jaeger from tools/go.mod (the first build takes several minutes)..."
	@bin=$$($(GO) tool -modfile=tools/go.mod -n jaeger) && echo "Jaeger is built: $$bin"

jaeger: ## run Jaeger on 127.0.0.1 until Ctrl-C: OTLP on :4317 (gRPC) and :4318 (HTTP), query API on :16686
	$(GO) tool -modfile=tools/go.mod jaeger --config tools/jaeger-config.yaml

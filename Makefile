# hermes-hooks — build, test, demo, bench, fuzz, lint.
# Every target works on a fresh machine with Go, git, gcc, make, python3 and
# node; anything else is installed here or avoided.

GO       ?= go
BIN      := bin/hermes-hooks
# The longest packages first: go test starts packages in the order named,
# and two of them take most of the run.
PKGS     := ./internal/attacktest ./cmd/hermes-hooks ./...
FUZZTIME ?= 10s
# Go's fuzzer minimises every input that finds new coverage, for up to
# -fuzzminimizetime (default 60 s), trying O(n^2) cuts of it and
# reporting no execs meanwhile: one 500-byte input held FuzzParseConfig at
# 0 execs/s for 48 s of a 60 s run. A crasher is still cut down, for
# FUZZMINIMIZETIME; re-run its input with a longer one if it needs more.
FUZZMINIMIZETIME ?= 2s

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOIMPORTS   ?= golang.org/x/tools/cmd/goimports@v0.52.0

.PHONY: all build install test test-windows test-portable stress fmt-check vet vet-cross staticcheck imports lint shellcheck fuzz demo bench e2e clean

all: build

# One binary, static (no cgo): nothing to resolve at start-up, which is
# most of a one-shot dispatch's cost (about 1 ms less per start on the
# bench machine).
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/hermes-hooks

# make install: the binary, built as make build builds it, into
# $(PREFIX)/bin with PREFIX=/usr/local (say), else where go install puts
# programs: $(go env GOBIN), else $(go env GOPATH)/bin.
PREFIX ?=
BINDIR ?= $(if $(PREFIX),$(PREFIX)/bin,$(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin))

install:
	mkdir -p "$(BINDIR)"
	CGO_ENABLED=0 $(GO) build -o "$(BINDIR)/hermes-hooks" ./cmd/hermes-hooks
	@echo "installed hermes-hooks in $(BINDIR)"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "$(BINDIR) is not on your PATH: export PATH=\"$(BINDIR):\$$PATH\"";; esac

# make test: gofmt check, go vet, then every test with the race detector.
# -timeout is go test's hang guard per package (default 10m): the longest
# package takes about a minute and a half on an idle two-core machine and
# four or more beside make stress; a hang still ends the run.
# Plain go test holds each package's result until those listed before it
# are done (a slow agent-hooks kept it silent for minutes): with -json the
# events come as they happen, and scripts/testprogress prints a line as
# each package starts and ends, what is still running every minute, and
# the output of failing tests; its exit code is go test's.
# GORACE atexit_sleep_ms=0: a race-built program sleeps a second before
# it exits 0 (the race detector's default, for late reports); every test
# binary and every copy of it a test starts as a hook or a helper paid it.
test: fmt-check vet
	@CGO_ENABLED=0 $(GO) build -o bin/testprogress ./scripts/testprogress
	GORACE="atexit_sleep_ms=0 $(GORACE)" bin/testprogress $(GO) test -race -count=1 -timeout 30m -json $(PKGS)

# make test-windows: the Windows build's tests, cross-compiled and run under
# Debian's Wine (wine64), which it installs when missing (as root or through
# sudo) with the two workarounds Wine 8 needs for Go programs (see
# scripts/test-windows.sh); skipped, with the reason, when Wine cannot be
# installed. WINE_PKGS (default: the packages that pass under Wine so far
# and testdata/script_windows) runs only those packages' tests.
WINE_PKGS ?=
test-windows:
	@GO=$(GO) sh scripts/test-windows.sh $(WINE_PKGS)

# make test-portable: the portable path (what macOS and the BSDs run: the
# os/exec runner, no child subreaper, no parent-death signal, no memfd or
# /proc/self/fd pinning, no read leases, no fstatfs trust of the digest
# cache) selected on Linux by the hermes_portable build tag, so that code is
# tested code. The runner contract, pinning, consent, the journal, the
# dispatcher and the attack regressions (their binary built with the same
# tag); a test that needs a Linux-only feature skips by asking the build.
PORTABLE_PKGS := ./internal/hookproc ./internal/cmdpin ./internal/fsutil ./consent ./journal ./dispatcher ./server ./internal/attacktest
test-portable:
	$(GO) vet -tags hermes_portable $(PKGS)
	$(GO) test -race -count=1 -timeout 30m -tags hermes_portable $(PORTABLE_PKGS)

# make stress: busy loops on twice as many threads as CPUs, until Ctrl-C
# (or SIGTERM). Run it beside `make test` to check that no test depends on
# the machine's speed: every test must pass on a loaded machine too.
stress:
	@CGO_ENABLED=0 $(GO) build -o bin/stress ./scripts/stress
	@echo "make stress: loading every CPU until Ctrl-C (or: kill the pid below)"
	@bin/stress

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)
	$(GO) vet -tags e2e ./e2e/   # make e2e's tests must at least build in every CI run

# The non-Linux builds (the os/exec runner, the stubs) must at least compile
# and pass vet: CI runs on Linux only.
vet-cross:
	@set -e; for os in darwin freebsd windows; do echo "go vet (GOOS=$$os)"; GOOS=$$os $(GO) vet $(PKGS); done

# staticcheck, at a pinned version, fetched through the module proxy; its
# default checks, no config: every finding is fixed, none is silenced.
staticcheck:
	$(GO) run $(STATICCHECK) $(PKGS)

# imports: goimports' grouping, this module's packages in a group of their
# own (-local), so a file's imports say at a glance what is ours.
imports:
	@out=$$($(GO) run $(GOIMPORTS) -local github.com/hermes-hooks/hermes-hooks -l .); \
	if [ -n "$$out" ]; then echo "goimports -local would change (run: go run $(GOIMPORTS) -local github.com/hermes-hooks/hermes-hooks -w .):"; echo "$$out"; exit 1; fi

lint: fmt-check vet vet-cross staticcheck imports shellcheck

# shellcheck is not on a fresh machine: install it from Debian's packages
# when missing (as root, or through sudo when available).
shellcheck:
	@command -v shellcheck >/dev/null 2>&1 || { \
	  sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get install -y -qq shellcheck >/dev/null 2>&1 || \
	  { $$sudo apt-get update -qq && $$sudo apt-get install -y -qq shellcheck >/dev/null; }; }
	shellcheck -s sh agent-hooks/*.sh scripts/*.sh

# make fuzz: every fuzz target, FUZZTIME each (make fuzz FUZZTIME=60s),
# each new input minimised for at most FUZZMINIMIZETIME.
fuzz:
	@set -e; for pkg in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZETIME) $$pkg; \
	  done; \
	done

# make demo: build, then show the main job on the bundled example config in
# a throwaway HERMES_HOME (never ~/.hermes).
demo: build
	@sh scripts/demo.sh $(BIN)

# make bench: the baselines of ../shared/bench side by side with ours.
bench: build
	@sh scripts/bench.sh

# make e2e: hermes-hooks under the real Claude Code, Codex, Gemini CLI,
# Qwen Code, Cline and GitHub Copilot CLIs (npm's @anthropic-ai/claude-code,
# @openai/codex, @google/gemini-cli, @qwen-code/qwen-code, cline and
# @github/copilot, cached in the user cache directory), offline against
# scripted fake models. Not part of make test; each skips with the reason when npm or its
# package is unavailable (HERMES_E2E_CLAUDE=/path/to/claude,
# HERMES_E2E_CODEX=/path/to/codex, HERMES_E2E_GEMINI=/path/to/gemini reuse
# a binary). TestPrometheus: a real Prometheus (Debian's prometheus
# package, fetched with apt-get download and unpacked into the same cache,
# not installed: installing starts a system service; skipped with the
# reason when it cannot be fetched; HERMES_E2E_PROMETHEUS=/path/to/prometheus
# reuses one) scrapes serve over loopback TCP and the test reads the counts
# back from its query API. Six CLIs take over ten minutes on a busy two-core machine:
# go test's default 10-minute limit would end the run, hence -timeout.
e2e:
	$(GO) test -tags e2e -count=1 -timeout 60m -v ./e2e/

clean:
	rm -rf bin

# journal-lint: common tasks. `make help` lists them.
GO ?= go
PKGS := ./...

.PHONY: help test short lint bench bench-scale fuzz vectors build generate

help:
	@echo "make test     run every test with the race detector and, at the same time, the long ones whole (what CI runs)"
	@echo "make short    the inner loop: go test -short ./... (the long tests small or skipped), two binaries per CPU"
	@echo "              (both put the tests' temporary files on a tmpfs when there is one)"
	@echo "make lint     gofmt check, go vet, and no unreachable function outside the public packages"
	@echo "make bench    parser throughput, as-of queries, check on generated trees"
	@echo "make bench-scale  check and Start on 10k/100k-file trees next to sha256sum, then the"
	@echo "                  git commands (hooks, new, the gate) next to git's own (SIZES, PAIRS)"
	@echo "make fuzz     fuzz the parser (FUZZTIME, default 10m)"
	@echo "make vectors  run the public vectors through journal-lint check"
	@echo "make build    build bin/journal-lint (static, the quicker to start)"
	@echo "make generate regenerate the rule-pack protocol code (plugins/proto)"

# The long tests (package internal/longtest): equivalence and scale tests
# on generated trees, tests of large inputs, and the CLI's scripts
# (hundreds of journal-lint and git processes). Under -short and under the
# race detector they run small or not at all; make test runs them whole in
# a second pass without the detector. TestMakefileListsLongTests holds
# these lists to the tests that call package longtest.
LONG_TESTS := TestLargeBuffer TestOversizedMessage TestGeneratedTreeJSONDigest \
	TestPriorEqualsFresh TestStreamingWorkersEquivalent TestSubjectsAreTheCheckedText \
	TestCacheIsInvisible TestCheckValidityIffStartSucceeds TestStreamSendsTheSameDocuments TestGeneratedTreesAreValidAndRealistic \
	TestInjectEveryCode TestRecycle TestTooLarge TestFormatCitations TestOnlyPinnedBytesRun TestCodecMatchesGenerated \
	TestHostileCatalogue TestCLIRelatedAcrossBatches TestCLICacheWithPurePack TestActionScript TestScripts TestLeavesFrom
LONG_PKGS := ./internal/lsp ./internal/check ./internal/plugin ./internal/gen ./plugins/proto/rulepack/v1/wire \
	./internal/syntax ./internal/tlog ./docs ./cmd/journal-lint
empty :=
space := $(empty) $(empty)
LONG_RUN := ^($(subst $(space),|,$(strip $(LONG_TESTS))))$$

# A program built with the race detector sleeps a second when it exits, for
# goroutines still running to report: every test binary did, a second per
# package, two packages at a time on two cores. A race during a test fails
# it without that wait. A GORACE of your own applies after this.
RACE_OPTIONS := $(strip atexit_sleep_ms=0 $(GORACE))

# The tests' temporary files go to a directory on a tmpfs when there is
# one (scripts/test-tmpdir.sh says why; TEST_TMPDIR=DIR picks another
# place). WITH_TMPDIR sets TMPDIR for the commands that follow it, and
# GOGC: the test binaries (and the journal-lint and pack processes they
# start) collect garbage a quarter as often as Go's default, which takes
# about a fifth off make test's CPU, most of it under the race detector,
# for heaps of tens of megabytes. A GOGC of your own applies instead.
TEST_GOGC := $(or $(GOGC),400)
WITH_TMPDIR := tmp=$$(scripts/test-tmpdir.sh) && export TMPDIR="$$tmp" GOGC=$(TEST_GOGC) && echo "TMPDIR=$$tmp GOGC=$(TEST_GOGC)"

# The two passes run at the same time: each leaves the CPUs idle at times
# (linking, tests that wait for a process), which the other fills. The
# race pass prints as it goes, the long pass when both are done.
test:
	@$(WITH_TMPDIR) && long=$$(mktemp) || exit 1; \
	echo "$(GO) test -count=1 -run '$(LONG_RUN)' $(LONG_PKGS) (in the background)"; \
	{ $(GO) test -count=1 -run '$(LONG_RUN)' $(LONG_PKGS) > "$$long" 2>&1; echo $$? > "$$long.rc"; } & \
	echo 'GORACE="$(RACE_OPTIONS)" $(GO) test -race -count=1 $(PKGS)'; \
	GORACE="$(RACE_OPTIONS)" $(GO) test -race -count=1 $(PKGS); race=$$?; \
	wait; echo "the long tests:"; cat "$$long"; rc=$$(cat "$$long.rc"); rm -f "$$long" "$$long.rc"; \
	[ "$$race" -eq 0 ] && [ "$$rc" -eq 0 ]

# Many test binaries of the inner loop wait more than they compute (on
# timeouts of packs, the language server's rescans, the processes they
# start), and go test runs one binary per CPU at a time: two per CPU keep
# the CPUs busy (go test -short ./...: 18 s at -p 2, 14-15 s at -p 4 on
# two CPUs at load 4-6). make test's two passes run side by side for the same reason.
SHORT_P := $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1); echo $$((2 * n)))

short:
	@$(WITH_TMPDIR) && echo "$(GO) test -short -p $(SHORT_P) $(PKGS)" && $(GO) test -short -p $(SHORT_P) $(PKGS)

# deadcode lists the functions no command and no test reaches; those of
# the public packages (journal/, plugins/, suggest/) are API for others.
DEADCODE ?= $(GO) run golang.org/x/tools/cmd/deadcode@v0.52.0

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	CGO_ENABLED=0 $(GO) vet -tags $(BUILD_TAGS) ./cmd/journal-lint/...
	@out=$$($(DEADCODE) -test $(PKGS)) || exit 1; out=$$(echo "$$out" | grep -E '^(internal|cmd|rules|examples)/' || true); \
	if [ -n "$$out" ]; then echo "unreachable (remove, or use):"; echo "$$out"; exit 1; fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

bench-scale:
	scripts/bench-scale.sh
	scripts/bench-git.sh

FUZZTIME ?= 10m
fuzz:
	$(GO) test ./internal/syntax -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)

vectors:
	@if [ -x ../shared/tools/check-vectors ]; then ../shared/tools/check-vectors; \
	else echo "make vectors: skipped, ../shared (the shared specification with its vectors) is not next to this checkout"; fi

# make build builds journal-lint static (CGO_ENABLED=0: the pure Go resolver and user
# lookups, no C library to load) and without urfave/cli's man-page and
# Markdown generators (urfave_cli_no_docs), which journal-lint never calls
# and whose Markdown parser initialises at every start. It starts 1 to 3
# ms sooner than a plain go build (docs/performance.md, "Start-up");
# make lint vets it.
BUILD_TAGS := urfave_cli_no_docs

build:
	CGO_ENABLED=0 $(GO) build -tags $(BUILD_TAGS) -o bin/journal-lint ./cmd/journal-lint

generate:
	.ci/generate.sh

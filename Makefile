# MPin Workbench: the two commands of the README, plus build and bench.
#
#   make demo      record and replay the bundled scenarios, verify the vectors, print the benchmarks
#   make test      the whole test suite (release build; the test targets -Onone)
#   make examples  the consumer package in Examples/, which depends on this one (run by .ci/run)
#   make docs      the DocC catalogs of MPinSDK, FlowRecording, WorkbenchTesting and Conformance
#   make man       the man page (.build-man/mpin-workbench.1); make cli-docs writes docs/cli.md,
#                  make arch-docs the generated section of docs/architecture.md
#   make format    the sources through swift format (.swift-format); make format-check lists what it changes
#   make ct-check  the crypto core's secrets under memcheck
#   make fuzz      every fuzz target for FUZZ_SECONDS
#
# `test` and `demo` first install the Debian packages the build links against, when missing.

SWIFT        ?= swift
SWIFT_FLAGS  ?=
BIN_DIR      ?= .build/release
WORKBENCH    := $(BIN_DIR)/mpin-workbench
DEB_PACKAGES := libgmp-dev libcurl4-openssl-dev libyaml-dev libjansson-dev valgrind python3 curl
# AMCL's published vector files are read from the shared folder beside the repository (never
# copied into it); `make demo` says so when it is absent and verifies the generated files alone.
SHARED_VECTORS ?= ../shared/vectors
UPSTREAM_RECORDING ?= ../shared/interop/upstream-sdk-core/unit_tests_recorded_data.json
PUBLISHED_VECTORS := $(sort $(wildcard $(SHARED_VECTORS)/amcl/*/*.txt $(SHARED_VECTORS)/amcl/*/*.json \
                       $(SHARED_VECTORS)/amcl/arith/*/*.txt))
DEMO_VECTORS := $(PUBLISHED_VECTORS) $(sort $(wildcard Vectors/generated/*.json Vectors/generated/*/*.json))

.PHONY: build test demo bench deps

## Install the Debian packages that are missing (apt-get, with sudo when not root).
deps:
	@missing=""; \
	for package in $(DEB_PACKAGES); do \
	  dpkg -s "$$package" >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	  echo "Installing Debian packages:$$missing"; \
	  $$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

## Every import is a declared dependency: each target's `import X` names one of its own direct
## dependencies or a toolchain module (Scripts/check_imports.py, stricter than SwiftPM's check,
## which lets an import of a dependency's dependency pass).
.PHONY: imports
imports:
	python3 Scripts/check_imports.py

## Release build of the package, with the flags of `test`, so that `build`, `test`, `demo`,
## `bench` and `ct-check` share one build in .build/release: run one after another, none compiles
## again what another compiled. `-enable-testing` costs the executables nothing they measure: the
## benchmarks' medians stay within their run-to-run spread (docs/benchmarks.md).
## `--explicit-target-dependency-import-check error` fails the build on an import of a target of
## ours that the importing target does not declare as a dependency.
build: deps
	$(SWIFT) build $(TEST_FLAGS) $(IMPORT_CHECK) $(SWIFT_FLAGS)

## The whole test suite, the code under test optimised (the test targets themselves are built
## -Onone, Package.swift says why). One build of everything, tests included, with the
## test flags; `swift test --skip-build` then runs it (a plain `swift test` after `swift build`
## compiled the whole package a second time).
## Without debug information (TEST_DEBUG_INFO): the same code compiles in about a fifth less time
## (measured on swift-nio's NIOHTTP1 and what it depends on: 180 s of CPU with it, 148 s without);
## a crash's backtrace still names the functions. `make test TEST_DEBUG_INFO=` keeps it.
TEST_DEBUG_INFO ?= -Xswiftc -gnone -Xcc -g0
TEST_FLAGS      := -c release -Xswiftc -enable-testing $(TEST_DEBUG_INFO)
IMPORT_CHECK    := --explicit-target-dependency-import-check error
## `--disable-testable-imports`: else `swift test` adds an `-enable-testing` of its own (the flags
## carry one already) to every command of the build plan it writes, and the next `swift build`
## (`make demo`'s, after `make test`) compiled the whole package and its dependencies again.
TEST_RUN_FLAGS  := --skip-build --disable-testable-imports
test: deps imports
	$(SWIFT) build $(TEST_FLAGS) $(IMPORT_CHECK) --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test $(TEST_FLAGS) $(TEST_RUN_FLAGS) $(SWIFT_FLAGS)
	@echo "The crypto suites again on the portable field arithmetic (MPIN_FIELD_KERNEL=portable):"
	MPIN_FIELD_KERNEL=portable $(SWIFT) test $(TEST_FLAGS) $(TEST_RUN_FLAGS) $(SWIFT_FLAGS) \
		--filter 'MPinCryptoTests|GMPOracleTests|TestVectorsTests'

## The consumer example (docs/testing.md, "Cassette tests in your own suite"): Examples/MPinConsumer, a
## package that depends on this one by path and replays its committed cassettes, built and tested
## in its own scratch folder: first as a replay-only user's (WorkbenchTesting alone, no SwiftNIO or
## Hummingbird), then with its trait Recording (WorkbenchTestingEmbedded and ReferenceBackend too). A debug build: the whole dependency graph compiles again there, which
## debug does in about two thirds of the time of release, and its offline replays take a second.
## Without debug information (EXAMPLES_FLAGS). The index store stays: a debug build finds the
## XCTest cases through it.
EXAMPLES_SCRATCH ?= .build-examples
EXAMPLES_FLAGS   ?= $(TEST_DEBUG_INFO)
.PHONY: examples
examples: deps
	$(SWIFT) build --package-path Examples/MPinConsumer --scratch-path $(EXAMPLES_SCRATCH) --build-tests $(EXAMPLES_FLAGS) $(SWIFT_FLAGS)
	$(SWIFT) test --package-path Examples/MPinConsumer --scratch-path $(EXAMPLES_SCRATCH) --skip-build $(EXAMPLES_FLAGS) $(SWIFT_FLAGS)
	$(SWIFT) build --package-path Examples/MPinConsumer --scratch-path $(EXAMPLES_SCRATCH) --build-tests --traits Recording $(EXAMPLES_FLAGS) $(SWIFT_FLAGS)
	$(SWIFT) test --package-path Examples/MPinConsumer --scratch-path $(EXAMPLES_SCRATCH) --skip-build --traits Recording $(EXAMPLES_FLAGS) $(SWIFT_FLAGS)

## The main job on the embedded default: record every bundled scenario (Scenarios/) against the
## reference backend started in-process on a free loopback port, into a temporary folder; replay
## them offline (strict, full crypto) with a summary table; verify AMCL's published vectors in
## ../shared/vectors (SHARED_VECTORS) and the generated ones in Vectors/generated; print the
## benchmark table.
DEMO_SCENARIOS := $(sort $(wildcard Scenarios/*.yaml Scenarios/*/*.yaml))
demo: build
	@out=$$(mktemp -d /tmp/mpin-workbench-demo.XXXXXX); \
	echo "Recording $(words $(DEMO_SCENARIOS)) scenarios against the embedded backend into $$out"; \
	for scenario in $(DEMO_SCENARIOS); do \
	  name=$$(basename $${scenario%.*}); \
	  $(WORKBENCH) record "$$scenario" --embedded --out "$$out/$$name.json" || exit 1; \
	done; \
	$(WORKBENCH) replay "$$out" --table
	@if [ -f "$(UPSTREAM_RECORDING)" ]; then \
	  out=$$(mktemp -d /tmp/mpin-workbench-upstream.XXXXXX); \
	  echo "Importing and replaying the upstream SDK core's recording $(UPSTREAM_RECORDING) in $$out"; \
	  $(WORKBENCH) cassette import --format milagro-sdk "$(UPSTREAM_RECORDING)" --out "$$out" >/dev/null || exit 1; \
	  $(WORKBENCH) replay "$$out" --table || exit 1; \
	else \
	  echo "$(UPSTREAM_RECORDING): absent, so the upstream SDK core's recording is not replayed"; \
	fi
	@if [ -z "$(PUBLISHED_VECTORS)" ]; then \
	  echo "$(SHARED_VECTORS): absent or empty, so AMCL's published vector files are not verified; verifying Vectors/generated only"; \
	fi
	$(WORKBENCH) vectors verify $(DEMO_VECTORS)
	$(WORKBENCH) bench

## The constant-time check (docs/security.md, "Constant-time secrets"): every M-Pin function on secrets runs
## under valgrind's memcheck with the secrets marked undefined, and any branch or memory index that
## depends on them is an error. The canary (a deliberate leak) must be reported first, or the check
## would prove nothing. Built with the flags of `test`, so the two share one build.
CT_CHECK := $(BIN_DIR)/mpin-ct-check
CT_CHECK_RUN := $(BIN_DIR)/mpin-ct-check-nodebug
VALGRIND ?= valgrind
.PHONY: ct-check
ct-check: deps
	$(SWIFT) build $(TEST_FLAGS) --product mpin-ct-check $(SWIFT_FLAGS)
	@# valgrind 3.19 cannot read the DWARF 5 debug information the C targets carry: check a copy
	@# without it (the symbol table stays, so reports still name functions).
	objcopy --strip-debug $(CT_CHECK) $(CT_CHECK_RUN)
	@status=0; $(VALGRIND) --tool=memcheck --error-exitcode=97 $(CT_CHECK_RUN) --canary >/dev/null 2>&1 || status=$$?; \
	if [ $$status -ne 97 ]; then \
	  echo "ct-check: memcheck did not report the canary's leak (exit $$status), so it cannot see secrets"; exit 1; \
	fi; \
	echo "ct-check: memcheck reports the canary's deliberate leak, as it must"
	$(VALGRIND) --tool=memcheck --error-exitcode=1 --track-origins=yes $(CT_CHECK_RUN)
	@# valgrind's cpuid hides ADX, so the run above checks the portable field arithmetic; where the
	@# processor has BMI2 and ADX (/proc/cpuinfo), MPIN_FIELD_KERNEL=kernel checks the kernel too.
	@if grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw adx /proc/cpuinfo; then \
	  echo "ct-check: the BMI2/ADX kernel (MPIN_FIELD_KERNEL=kernel)"; \
	  MPIN_FIELD_KERNEL=kernel $(VALGRIND) --tool=memcheck --error-exitcode=1 --track-origins=yes $(CT_CHECK_RUN); \
	else \
	  echo "ct-check: this processor has no BMI2/ADX, so the kernel is not checked (it never runs here)"; \
	fi

## Benchmark medians (table) for both curves, then the instruction counts under callgrind
## (docs/benchmarks.md, "Instruction counts"): the pairing, its halves, the GT power and the scalar
## multiplications, on the portable field arithmetic and on the BMI2/ADX kernel where the CPU has
## it, against Scripts/instruction_counts.json; fails when one is more than 5% above its baseline.
## `build` already built mpin-instruction-count, with the same flags.
INSTRUCTION_COUNT := $(BIN_DIR)/mpin-instruction-count
bench: build
	$(WORKBENCH) bench --curve bn254cx
	$(WORKBENCH) bench --curve bn254
	python3 Scripts/instruction_counts.py --valgrind $(VALGRIND) $(INSTRUCTION_COUNT)

## Coverage-guided fuzzing of every parser and decoder (docs/security.md, "Fuzzing"): the fuzz package Fuzz/,
## built with libFuzzer and the address sanitizer into its own scratch folder (never by `test`),
## then each target for FUZZ_SECONDS from its seed corpus Fuzz/Corpus/<target>/. Fails on a crash.
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH ?= .build-fuzz
.PHONY: fuzz
fuzz: deps
	$(SWIFT) build --package-path Fuzz -c release --scratch-path $(FUZZ_SCRATCH) \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing $(SWIFT_FLAGS)
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SCRATCH=$(FUZZ_SCRATCH) Fuzz/run.sh

## The DocC documentation of MPinSDK, FlowRecording, WorkbenchTesting and Conformance (docs/architecture.md,
## "Documentation"): one archive per
## catalog, DOCS_OUTPUT/<Target>.doccarchive, made by the swift-docc-plugin in a scratch folder of
## its own (never the shared .build). A DocC warning (a broken symbol link, an undocumented or
## unknown parameter) fails it. The articles' code is the package's Snippets/, which `swift build`
## compiles with the rest.
DOCS_OUTPUT  ?= .build-docs
DOCS_SCRATCH ?= .build-docs-scratch
.PHONY: docs
docs:
	$(SWIFT) package --scratch-path $(DOCS_SCRATCH) --allow-writing-to-directory $(DOCS_OUTPUT) \
	  generate-documentation --target MPinSDK --target FlowRecording --target WorkbenchTesting --target Conformance \
	  --output-path $(DOCS_OUTPUT) --warnings-as-errors
	@echo "docs: $(DOCS_OUTPUT)/<Target>.doccarchive for MPinSDK, FlowRecording, WorkbenchTesting and Conformance"

## The man page (README "The three jobs"): swift-argument-parser's generate-manual plugin, which
## comes with the resolved package (nothing is fetched), run on a debug build of the package (the
## build `swift build --build-tests` shares); the page is copied to MAN_OUTPUT.
## `man -l .build-man/mpin-workbench.1` shows it.
MAN_OUTPUT ?= .build-man
.PHONY: man
man:
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --configuration debug
	mkdir -p $(MAN_OUTPUT)
	cp .build/plugins/GenerateManual/outputs/mpin-workbench/mpin-workbench.1 $(MAN_OUTPUT)/
	@echo "man: $(MAN_OUTPUT)/mpin-workbench.1"

## docs/cli.md, the command-line reference, from the built executable's help
## (Scripts/cli-reference.sh); DocsTests fails when the committed file differs from it.
.PHONY: cli-docs
cli-docs: build
	Scripts/cli-reference.sh $(WORKBENCH) > docs/cli.md

## The generated section of docs/architecture.md (between its marker lines): the products and their
## modules, the counts, the target graph and the DocC catalogs, from `swift package dump-package`
## read by Scripts/target_graph.py; DocsTests fails when the committed section differs from it.
## Run it after a change to the package's products, targets or dependencies.
.PHONY: arch-docs
arch-docs:
	$(SWIFT) package dump-package | python3 Scripts/target_graph.py - --write docs/architecture.md

## The toolchain's swift-format (`swift format`) with the package's .swift-format: `format` rewrites
## the sources in place, `format-check` lists what it would change and fails when anything would.
FORMAT_PATHS := Sources Tests Snippets Examples Fuzz
.PHONY: format format-check
format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)
format-check:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

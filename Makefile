# kfit - build, test and sanitizer targets.  See README.md.
CC      ?= cc
BUILD   ?= build
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter \
           -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wformat=2 \
           -Wno-format-nonliteral
OPT     ?= -O2 -g
CFLAGS  ?=
EXTRA_CFLAGS ?=
LDFLAGS ?=
CPPFLAGS += -Iinclude -D_GNU_SOURCE
LIBS    := -lz -llzma -pthread
PREFIX  ?= /usr/local
DESTDIR ?=

# The library, a folder per layer (docs/architecture.md): util, tree, kconfig,
# profiles, detect, generate.  Each folder's private headers are found by
# the library and the tests through LIB_INC.  A file still directly in
# lib/ (work begun before the folders) is built too, so none is dropped.
LIB_DIRS := util tree kconfig profiles detect generate
LIB_SRC := $(sort $(wildcard lib/*.c) $(foreach d,$(LIB_DIRS),$(wildcard lib/$(d)/*.c)))
LIB_INC := -Ilib $(LIB_DIRS:%=-Ilib/%)
SRC_SRC := $(sort $(wildcard src/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
SRC_OBJ := $(SRC_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# Fuzz targets (tests/fuzz/NAME.c).  Each also links with tests/fuzz/replay.c
# into $(BUILD)/tests/fuzz-NAME, which replays the committed corpus and
# regression inputs as a unit test in every check.
FUZZ_TARGETS := kconfig conf dotconfig profile json modalias cache menu
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz-%)
UNIT_BIN += $(FUZZ_REPLAY)
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(EXTRA_CFLAGS) -MMD -MP

.PHONY: all check check-unit check-cases check-compat check-full asan tsan \
        clean install man profiles-audit bench fuzz valgrind deps e2e e2e-all \
        e2e-deps e2e-report e2e-pc e2e-arm64-deps e2e-arm64

all: $(BUILD)/kfit

$(BUILD)/libkfit.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/kfit: $(SRC_OBJ) $(BUILD)/libkfit.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(SRC_OBJ) $(BUILD)/libkfit.a $(LIBS)

$(LIB_OBJ): CPPFLAGS += $(LIB_INC)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libkfit.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LIB_INC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libkfit.a $(LIBS)

$(BUILD)/tests/fuzz-%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/*.h $(BUILD)/libkfit.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LIB_INC) $(CSTD) $(WARN) $(OPT) $(CFLAGS) $(EXTRA_CFLAGS) -DFUZZ_NAME='"$*"' $(LDFLAGS) -o $@ \
	  tests/fuzz/$*.c tests/fuzz/replay.c $(BUILD)/libkfit.a $(LIBS)

# libFuzzer builds (clang): the library instrumented for coverage with
# ASan+UBSan in $(FUZZ_BUILD), one fuzzer per target, each run for
# FUZZ_SECONDS from the committed corpus (tests/fuzz/README.md).
fuzz-lib:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT="-O1 -g" \
	  EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_BUILD)/libkfit.a

$(FUZZ_BUILD)/fuzz-%: tests/fuzz/%.c tests/fuzz/*.h fuzz-lib
	clang $(CPPFLAGS) $(LIB_INC) $(CSTD) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -o $@ \
	  tests/fuzz/$*.c $(FUZZ_BUILD)/libkfit.a $(LIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)

fuzz: fuzz-build
	FUZZ_BUILD=$(FUZZ_BUILD) tests/fuzz/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

.PHONY: fuzz-lib fuzz-build

# Every test: unit tests, golden cases, and the compatibility suite against
# the kernel's own scripts/kconfig.  tests/run.sh prints "N passed, N failed".
check: all $(UNIT_BIN)
	@BUILD=$(BUILD) tests/run.sh

check-full: all $(UNIT_BIN)
	@BUILD=$(BUILD) KFIT_TEST_FULL=1 tests/run.sh

# Subsets of check, by test-name prefix (see tests/run.sh).
check-unit: all $(UNIT_BIN)
	@BUILD=$(BUILD) KFIT_TEST_FILTER='^unit/' tests/run.sh

check-cases: all $(UNIT_BIN)
	@BUILD=$(BUILD) KFIT_TEST_FILTER='^cases/' tests/run.sh

check-compat: all $(UNIT_BIN)
	@BUILD=$(BUILD) KFIT_TEST_FILTER='^compat/' tests/run.sh

# The unit tests and a few compat cases under valgrind (slow: a sample).
# A golden case takes some 20 times as long under valgrind (conf-syntax-errors
# runs kfit 440 times): 2400 s per case instead of 600.
valgrind: all $(UNIT_BIN)
	@BUILD=$(BUILD) KFIT_VALGRIND=1 KFIT_TEST_CASE_TIMEOUT=$${KFIT_TEST_CASE_TIMEOUT:-2400} \
	  KFIT_TEST_FILTER='^unit/|^cases/|^compat/kconfig-modes/6\.1-x86_64-(olddefconfig|allnoconfig|savedefconfig-debian-6\.1)$$' \
	  tests/run.sh

bench: all
	bench/olddefconfig.sh

asan:
	$(MAKE) BUILD=build-asan CC=clang \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" check

# The threads (the load ahead with its index of dependents, the detection
# scan's workers) under ThreadSanitizer: the unit tests and golden cases.
tsan:
	$(MAKE) BUILD=build-tsan CC=clang \
	  EXTRA_CFLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=thread" check-unit check-cases

deps:
	scripts/install-deps.sh

# Proof by boot (not part of check): see README, "End-to-end boot test".
E2E_CACHE ?= $(or $(KFIT_E2E_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/kfit/e2e)

e2e-deps:
	scripts/install-e2e-deps.sh

e2e: e2e-deps all
	KFIT_E2E_CACHE=$(E2E_CACHE) e2e/run.sh

e2e-all: e2e-deps all
	KFIT_E2E_CACHE=$(E2E_CACHE) e2e/run-all.sh

# The emulated UEFI PC (q35, OVMF, NVMe, ...): stock kernel, snapshot,
# generate --detect, kfit build, install, boot with a USB stick, compare
# (e2e/pc-run.sh).  KFIT_E2E_PC_TREE=7.3 builds from another tree (6.1).
KFIT_E2E_PC_TREE ?= 6.1
e2e-pc: e2e-deps all
	KFIT_E2E_CACHE=$(E2E_CACHE) KFIT_E2E_PC_TREE=$(KFIT_E2E_PC_TREE) e2e/pc-run.sh

# The emulated arm64 board (qemu-system-aarch64 -M virt, device tree):
# Debian 12 arm64 with its stock kernel, snapshot, generate --detect -a
# arm64, cross build, install, boot with a USB stick, compare
# (e2e/arm64-run.sh).  KFIT_E2E_ARM64_TREE=7.3 builds from another tree (6.12).
KFIT_E2E_ARM64_TREE ?= 6.12
e2e-arm64-deps:
	scripts/install-e2e-deps.sh arm64

e2e-arm64: e2e-arm64-deps all
	KFIT_E2E_CACHE=$(E2E_CACHE) KFIT_E2E_ARM64_TREE=$(KFIT_E2E_ARM64_TREE) e2e/arm64-run.sh

e2e-report:
	e2e/report.sh $(E2E_CACHE) >docs/e2e.md
	e2e/report-all.sh $(E2E_CACHE) docs/e2e.md
	e2e/pc-report.sh $(E2E_CACHE) docs/e2e.md
	e2e/arm64-report.sh $(E2E_CACHE) docs/e2e.md
	e2e/kfit-build-report.sh $(E2E_CACHE) docs/e2e.md

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/kfit $(DESTDIR)$(PREFIX)/bin/kfit
	# the profile database, where kfit looks beside its binary
	install -d $(DESTDIR)$(PREFIX)/share/kfit
	cp -R profiles $(DESTDIR)$(PREFIX)/share/kfit/
	find $(DESTDIR)$(PREFIX)/share/kfit/profiles -type d -exec chmod 755 {} +
	find $(DESTDIR)$(PREFIX)/share/kfit/profiles -type f -exec chmod 644 {} +
	# the man page (docs/kfit.1, made by scripts/gen-man.sh) and bash completion
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 docs/kfit.1 $(DESTDIR)$(PREFIX)/share/man/man1/kfit.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 completion/kfit.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kfit

# Regenerate docs/kfit.1 from docs/kfit.1.in and the usage texts
# (tests/cases/man-page-current fails when it is stale).
man: $(BUILD)/kfit
	scripts/gen-man.sh $(BUILD)/kfit >docs/kfit.1.tmp && mv docs/kfit.1.tmp docs/kfit.1

# Regenerate docs/profiles-audit.md, the verification record of every
# requirement (tests/cases/profiles-audit-current fails when it is stale).
profiles-audit: $(BUILD)/kfit
	scripts/profiles-audit.py $(BUILD)/kfit >docs/profiles-audit.md.tmp && \
		mv docs/profiles-audit.md.tmp docs/profiles-audit.md

clean:
	rm -rf build build-asan $(FUZZ_BUILD)

-include $(LIB_OBJ:.o=.d) $(SRC_OBJ:.o=.d)

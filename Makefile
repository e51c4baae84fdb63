# SPDX-License-Identifier: GPL-2.0
# SandBox Mode for Linux 6.12: see README.md.

CONFIGS := off weak strong

.PHONY: all tree build $(addprefix build-,$(CONFIGS)) test demo bench shell fuzz check series kunit clean

all: test

tree:
	tools/deps.sh
	tools/prepare-tree.sh

build: $(addprefix build-,$(CONFIGS))

$(addprefix build-,$(CONFIGS)): build-%: tree
	tools/build.sh $*

test:
	tools/test.sh

demo:
	tools/demo.sh

bench:
	tools/bench.sh

shell:
	tools/shell.sh

# make fuzz [SEED=n] [STREAMS=n] [CONFIG=strong]
fuzz:
	SEED=$(SEED) STREAMS=$(STREAMS) CONFIG=$(CONFIG) tools/fuzz.sh

check: tree
	tools/check.sh

series: tree
	tools/series.sh

# make kunit [KUNIT_DIRS="kernel/sbm ..."]: the suites through kunit.py
kunit: tree
	KUNIT_DIRS="$(KUNIT_DIRS)" tools/kunit.sh

clean:
	rm -rf build

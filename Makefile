# SPDX-License-Identifier: GPL-2.0
# hcclthread: top-level build. See README.md.
#
#   make                 module (running kernel, if its headers exist), library, tools
#   make module KVER=R   build/R/hcclthread.ko
#   make lib             build/lib/libhcclthread.so.1, .so, .a, hcclthread.pc
#   make tools           build/bin/: examples, hcclthread-smi, trace, bench
#   make selftests       build/kselftest/ (installed kselftests, run_kselftest.sh)
#   make install         library, headers, hcclthread.pc, tools (DESTDIR, PREFIX);
#                        with CANN_HOME=DIR also a CANN-style home (include/, lib64/)
#   make modules_install module into /lib/modules/KVER/updates (KVER, DESTDIR)
#   make dkms_install    sources into /usr/src/hcclthread-1.0, dkms add + install
#   make deps            Debian packages (root)
#   make check           everything that must pass; ends with "N passed, N failed"
#   make demo            the seed examples and the status tool in a VM
#   make bench           benchmarks in a VM, build/bench.md

BUILD ?= $(CURDIR)/build
PREFIX ?= /usr/local
DESTDIR ?=
KVER ?= $(shell uname -r)
LINUX_SRC_TAR ?= /usr/src/linux-source-6.1.tar.xz
LINUX_SRC := $(BUILD)/linux-source-6.1
KSFT_DIR := $(LINUX_SRC)/tools/testing/selftests

export BUILD

.PHONY: all module lib tools selftests install modules_install dkms_install \
	deps check \
	demo bench clean linux-source docs-check

all: lib tools
	@if [ -f /lib/modules/$(KVER)/build/Makefile ] || \
	    [ -f /usr/src/linux-headers-$(KVER)/Makefile ]; then \
		$(MAKE) module KVER=$(KVER); \
	else \
		echo "make: no headers for the running kernel $(KVER): module not built" \
		     "(make module KVER=<release>)"; \
	fi

module:
	tools/build-module $(KVER) $(if $(W),W=$(W)) $(if $(C),C=$(C))

lib:
	$(MAKE) -C lib O=$(BUILD)

tools: lib
	$(MAKE) -C tools/examples O=$(BUILD)
	$(MAKE) -C tools/smi O=$(BUILD)
	$(MAKE) -C tools/trace O=$(BUILD)
	$(MAKE) -C tools/bench O=$(BUILD)
	install -m 0644 tools/vm/guest/* $(BUILD)/bin/
	install -m 0755 tools/debug-kernel/kmemleak-check \
		tools/debug-kernel/faultinject.sh $(BUILD)/bin/

linux-source: $(LINUX_SRC)/Makefile

$(LINUX_SRC)/Makefile: $(LINUX_SRC_TAR)
	mkdir -p $(BUILD)
	tar -C $(BUILD) -xf $(LINUX_SRC_TAR)
	touch $@

# The kselftests are built the way a kernel tree builds them: staged into
# the linux-source tree, built and installed with its lib.mk.
selftests: $(LINUX_SRC)/Makefile
	install -D -m 0644 uapi/drm/hcclthread_accel.h \
		$(LINUX_SRC)/include/uapi/drm/hcclthread_accel.h
	rsync -a --delete selftests/drivers/hcclthread/ \
		$(KSFT_DIR)/drivers/hcclthread/
	rm -rf $(BUILD)/kselftest
	$(MAKE) -C $(KSFT_DIR) TARGETS=drivers/hcclthread \
		INSTALL_PATH=$(BUILD)/kselftest install
	@# The least of a kernel tree that `make run_tests` needs, for the VM.
	rm -rf $(BUILD)/ksft-tree
	install -D -m 0644 $(LINUX_SRC)/scripts/subarch.include \
		$(BUILD)/ksft-tree/scripts/subarch.include
	mkdir -p $(BUILD)/ksft-tree/tools/testing/selftests/drivers
	cp -a $(addprefix $(KSFT_DIR)/,Makefile lib.mk kselftest kselftest.h \
		kselftest_harness.h) $(BUILD)/ksft-tree/tools/testing/selftests/
	cp -a $(KSFT_DIR)/drivers/hcclthread \
		$(BUILD)/ksft-tree/tools/testing/selftests/drivers/

install: lib tools
	$(MAKE) -C lib O=$(BUILD) DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) install
	$(if $(CANN_HOME),$(MAKE) -C lib O=$(BUILD) CANN_HOME=$(CANN_HOME) install-cann)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD)/bin/hcclthread-smi $(BUILD)/bin/hcclthread-trace \
		$(DESTDIR)$(PREFIX)/bin/

modules_install:
	install -D -m 0644 $(BUILD)/$(KVER)/hcclthread.ko \
		$(DESTDIR)/lib/modules/$(KVER)/updates/hcclthread.ko
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

DKMS_SRC := $(DESTDIR)/usr/src/hcclthread-1.0

dkms_install:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)/driver $(DKMS_SRC)/uapi/drm
	cp -a driver/. $(DKMS_SRC)/driver/
	cp -a uapi/drm/hcclthread_accel.h $(DKMS_SRC)/uapi/drm/
	install -m 0644 driver/dkms.conf $(DKMS_SRC)/dkms.conf
	if [ -z "$(DESTDIR)" ]; then \
		dkms add hcclthread/1.0 && dkms install hcclthread/1.0; fi

deps:
	tools/deps.sh

docs-check: $(LINUX_SRC)/Makefile
	tools/docs-check

check: deps
	tools/check.sh

demo: deps
	tools/demo.sh

bench: deps
	tools/bench.sh

clean:
	rm -rf $(BUILD)
	find driver -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' | xargs -r rm -f

# nearcrawl -- build, test, demo.
#
#   make          build ./nearcrawl
#   make test     install what is missing, build (plain and ASan+UBSan), run
#                 the whole suite; closes with "N passed, N failed"
#   make demo     install what is missing, build, crawl the bundled sample site
#   make bench-lookup  build build/plain/bench_lookup
#                 (scripts/bench/bench-lookup.sh)
#   make fuzz     build the libFuzzer targets (clang) and run each for
#                 FUZZ_SECONDS (default 30); see tests/fuzz/README.md
#   make format   clang-format every source file
#   make install  the binary, nearcrawl.1 and the bash completion under
#                 PREFIX (/usr/local), staged under DESTDIR when given

CC      ?= cc
PKGS     = libcurl libevent libxml-2.0 sqlite3 inih libcrypto zlib libpq \
           libbrotlidec
DEPS_OK := $(shell pkg-config --exists $(PKGS) jemalloc 2>/dev/null && echo yes)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lfuzzy -lm \
              -pthread
# The binary users run allocates through jemalloc: libxml2 builds and frees
# a tree of small nodes a page on every worker, and glibc's malloc spent
# about 9% of the crawl's instructions there (docs/performance.md). The
# sanitizer builds keep the sanitizers' own allocator.
ALLOC_LIBS := $(shell pkg-config --libs jemalloc 2>/dev/null)

WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter
CFLAGS  ?= -O2 -g
# The root is the only include path: every include names its layer
# ("web/url.h"). -MMD -MP writes each object's real header dependencies.
CPPFLAGS = -pthread -D_GNU_SOURCE -I. $(PKG_CFLAGS)
DEPFLAGS = -MMD -MP
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined

# The layers, lowest first; each folder includes only from folders before it.
LAYERS   = util web dedup config storage archive digest crawler cmd
LIB_SRC  = $(filter-out cmd/main.c,$(foreach d,$(LAYERS),$(wildcard $(d)/*.c)))
MAIN_SRC = cmd/main.c
UNIT_SRC = $(wildcard tests/unit/*.c)
SRV_SRC  = $(wildcard tests/server/*.c)

B  = build/plain
BS = build/san

# storage/schema.sql, the schema's only copy, compiled in as a C source.
GEN        = build/gen
SCHEMA_C   = $(GEN)/storage/schema_sql.c
SCHEMA_OBJ = $(B)/gen/storage/schema_sql.o
SCHEMA_SAN = $(BS)/gen/storage/schema_sql.o

obj  = $(patsubst %.c,$(1)/%.o,$(2))

.PHONY: all deps deps-run test test-run unit demo clean format fuzz \
    bench-lookup install uninstall

all: nearcrawl

deps:
	@scripts/make/install-deps.sh test

# What building and running need, not the test tools (make demo).
deps-run:
	@scripts/make/install-deps.sh run

ifneq ($(DEPS_OK),yes)
# Missing libraries: install them, then start again with pkg-config working.
nearcrawl build/san/nearcrawl build/plain/ncserver build/san/unit: deps-run
	@$(MAKE) --no-print-directory $@
else
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) $(WARN) -c $< -o $@

$(BS)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) -O1 -g $(SAN) $(WARN) -c $< -o $@

$(SCHEMA_C): storage/schema.sql scripts/make/schema-to-c.awk
	@mkdir -p $(dir $@)
	LC_ALL=C awk -f scripts/make/schema-to-c.awk storage/schema.sql >$@.tmp
	mv $@.tmp $@

$(SCHEMA_OBJ): $(SCHEMA_C)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) $(WARN) -c $< -o $@

$(SCHEMA_SAN): $(SCHEMA_C)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) -O1 -g $(SAN) $(WARN) -c $< -o $@

-include $(wildcard $(B)/*/*.d $(B)/*/*/*.d $(BS)/*/*.d $(BS)/*/*/*.d)

nearcrawl: $(call obj,$(B),$(LIB_SRC) $(MAIN_SRC)) $(SCHEMA_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(ALLOC_LIBS)

$(BS)/nearcrawl: $(call obj,$(BS),$(LIB_SRC) $(MAIN_SRC)) $(SCHEMA_SAN)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

$(BS)/unit: $(call obj,$(BS),$(LIB_SRC) $(UNIT_SRC)) $(SCHEMA_SAN)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS)

$(B)/ncserver: $(call obj,$(B),$(SRV_SRC))
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

$(B)/bench_lookup: $(call obj,$(B),tests/bench/bench_lookup.c \
    dedup/simindex.c dedup/ssdeep.c dedup/topk.c dedup/idcol.c \
    util/tagtab.c util/chunks.c)
	$(CC) $(CFLAGS) -o $@ $^ -lfuzzy -lm
endif

bench-lookup: $(B)/bench_lookup

# The man page, generated from the same tables as --help.
nearcrawl.1: nearcrawl
	./nearcrawl man >$@

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the binary, its man
# page and its bash completion.
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions

install: nearcrawl nearcrawl.1
	install -d $(BINDIR) $(MANDIR) $(COMPDIR)
	install -m 755 nearcrawl $(BINDIR)/nearcrawl
	install -m 644 nearcrawl.1 $(MANDIR)/nearcrawl.1
	install -m 644 completion/nearcrawl.bash $(COMPDIR)/nearcrawl

uninstall:
	rm -f $(BINDIR)/nearcrawl $(MANDIR)/nearcrawl.1 $(COMPDIR)/nearcrawl

unit: $(BS)/unit
	$(BS)/unit

test: deps
	@$(MAKE) -j2 --no-print-directory nearcrawl $(BS)/nearcrawl $(BS)/unit $(B)/ncserver
	@tests/run.sh

demo: deps-run
	@$(MAKE) --no-print-directory nearcrawl $(B)/ncserver
	@scripts/make/demo.sh

fuzz:
	@scripts/make/fuzz.sh $(FUZZ_SECONDS)

format:
	clang-format -i $(foreach d,$(LAYERS),$(wildcard $(d)/*.[ch])) \
	    $(wildcard tests/unit/*.[ch] tests/server/*.[ch])

clean:
	rm -rf build nearcrawl nearcrawl.1

-- nearcrawl database, schema version 1 (PRAGMA user_version).
-- The only copy: the build turns this file into a C string
-- (scripts/make/schema-to-c.awk), which storage/store_schema.c runs. Three
-- marks are read there: "-- [later]" starts the tables added after the first
-- schema-1 databases existed, which every writer open runs again (so they
-- say IF NOT EXISTS); a column whose comment starts "[added]" came later
-- too, and a writer open adds it to a table that lacks it (ALTER TABLE ...
-- ADD COLUMN, so it must stay last in its table, in order of addition);
-- a line "-- [pg] STATEMENT" is run by PostgreSQL alone, a line
-- "-- [sqlite] STATEMENT" by SQLite alone.

-- Settings and counters that define and continue a crawl.
CREATE TABLE meta (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

-- One row per URL fetched: the research's "Simhash Values" table.
CREATE TABLE pages (
	id INTEGER PRIMARY KEY, -- ID
	url TEXT NOT NULL UNIQUE, -- Actual_URL: the URL requested
	host TEXT NOT NULL,
	simhash INTEGER, -- Hash_value: 64 bits stored as signed int64
	md5 TEXT, -- hex MD5 of the extracted text
	ssdeep TEXT, -- ssdeep of the extracted text
	verdict TEXT NOT NULL CHECK (verdict IN
	    ('unique', 'exact', 'near', 'redirect', 'error', 'skipped')),
	reason TEXT, -- why error, skipped or redirect
	status INTEGER, -- HTTP status, 0 when none
	content_type TEXT,
	depth INTEGER NOT NULL, -- links followed from a seed
	seq INTEGER NOT NULL UNIQUE, -- fetch order: 1, 2, 3 ...
	fetched_at REAL NOT NULL, -- Unix time, seconds
	parent_id INTEGER REFERENCES pages(id), -- linking page, NULL for seeds
	location TEXT, -- redirect target
	title TEXT,
	headings TEXT,
	description TEXT,
	keywords TEXT,
	charset TEXT,
	body_bytes INTEGER, -- after content decoding
	text_bytes INTEGER, -- of the extracted text
	links INTEGER, -- links found on the page
	elapsed_ms REAL, -- transfer time
	text TEXT, -- extracted text, when kept
	minhash BLOB, -- [added] MinHash signature: k 32-bit minima, little-endian
	canonical TEXT, -- [added] declared canonical URL (Link header, else
	-- <link rel=canonical>), absolute and normalised; NULL when none
	worker TEXT, -- [added] the process that judged the page: its
	-- --worker name, by default "machine:pid"
	etag TEXT, -- [added] the response's ETag, for conditional recrawls
	last_modified TEXT -- [added] its Last-Modified, likewise
);
CREATE INDEX pages_host ON pages (host);

-- One row per (later page, earlier page, method): the research's
-- "Duplicate Value" table; a page can repeat several earlier ones.
CREATE TABLE duplicates (
	id INTEGER PRIMARY KEY,
	page_id INTEGER NOT NULL REFERENCES pages(id), -- Actual_Hash_ID: later
	original_id INTEGER NOT NULL REFERENCES pages(id), -- Duplicate_Hash_ID
	method TEXT NOT NULL, -- md5, simhash, ssdeep ...
	percentage REAL NOT NULL -- similarity in percent, 100 for exact
);
CREATE INDEX duplicates_page ON duplicates (page_id);
CREATE INDEX duplicates_original ON duplicates (original_id);

-- The crawl's queue. Every URL ever queued stays, so a URL is queued once:
-- SQLite keeps the URLs in memory for that (storage/store_urls.c), so the
-- table is only appended to; PostgreSQL, shared by several processes,
-- keeps the index below. (Older SQLite files have url UNIQUE.)
CREATE TABLE frontier (
	id INTEGER PRIMARY KEY, -- queue order
	url TEXT NOT NULL, -- normalised
	host TEXT NOT NULL,
	depth INTEGER NOT NULL,
	state INTEGER NOT NULL DEFAULT 0, -- 0 queued, 1 in flight, 2 done
	not_before REAL NOT NULL DEFAULT 0, -- Unix time it may be taken
	tries INTEGER NOT NULL DEFAULT 0, -- earlier attempts requeued
	parent_id INTEGER, -- pages.id of the linking page, NULL for seeds
	dup_hops INTEGER NOT NULL DEFAULT 0 -- [added] duplicates in a row behind it
);
-- Taking a host's oldest entry: entries of (host, state) are in id order
-- in this index, so the first due one is found without sorting.
CREATE INDEX frontier_take ON frontier (host, state);
-- Per-host summaries and state counts read only this index.
CREATE INDEX frontier_queued ON frontier (state, host, not_before);
-- [pg] CREATE UNIQUE INDEX frontier_url ON frontier (url);

-- [later] Everything below came after the first databases were made, with
-- no version change: store_open runs it again on every writer open.
-- Politeness state a resumed crawl must keep.
-- The robots.txt cache, one row per authority "scheme://host[:port]".
CREATE TABLE IF NOT EXISTS robots (
	origin TEXT NOT NULL PRIMARY KEY, -- NOT NULL: SQLite allows NULL keys
	status INTEGER NOT NULL, -- HTTP status of the fetch, 0 network error
	body BLOB, -- as received, capped by the crawler
	fetched_at REAL NOT NULL, -- Unix time, seconds
	expires_at REAL NOT NULL, -- Unix time to fetch it again
	failures INTEGER NOT NULL DEFAULT 0 -- consecutive failed fetches
);
-- Per-host back-off.
CREATE TABLE IF NOT EXISTS hosts (
	host TEXT NOT NULL PRIMARY KEY,
	not_before REAL NOT NULL DEFAULT 0, -- Unix time of the next request
	backoff_ms INTEGER NOT NULL DEFAULT 0, -- current back-off
	failures INTEGER NOT NULL DEFAULT 0, -- consecutive failures
	gave_up TEXT -- why the host was given up, NULL while crawled
);

-- The link graph and what `nearcrawl rank` makes of it.
-- The links of each judged page that has any, followed or not, nofollow
-- ones left out; a redirect's is its target. 8 bytes per link: the URL's
-- store_url_hash, little-endian, in document order. One row per page keeps
-- the write to one statement and the graph to 8 bytes a link.
CREATE TABLE IF NOT EXISTS links (
	page_id INTEGER PRIMARY KEY REFERENCES pages(id),
	targets BLOB NOT NULL -- 8 bytes per link
);
-- Each page's PageRank and the canonical page of its duplicate cluster;
-- every `nearcrawl rank` writes the table afresh.
CREATE TABLE IF NOT EXISTS ranks (
	page_id INTEGER PRIMARY KEY REFERENCES pages(id),
	pagerank REAL NOT NULL, -- share of the whole: all pages sum to 1
	canonical_id INTEGER REFERENCES pages(id) -- NULL: in no cluster
);
-- TDW vectors of the pages the tdw method indexed (every page it judged
-- but the exact copies), for resuming; added like the tables above.
CREATE TABLE IF NOT EXISTS page_tdw (
	page_id INTEGER PRIMARY KEY REFERENCES pages(id),
	vec BLOB NOT NULL -- version byte 1, then per token: id (4 bytes),
	-- weight (2 bytes), little-endian, ids increasing, weights summing
	-- to 65535
);
-- Word 3-shingle sets of the pages a near verdict may point at (every
-- judged page but the exact copies): a later page is confirmed near only
-- when few of its words are missing from its original's set.
CREATE TABLE IF NOT EXISTS page_shingles (
	page_id INTEGER PRIMARY KEY REFERENCES pages(id),
	shingles BLOB NOT NULL -- version byte 1, the count, then the sorted
	-- 32-bit hashes as LEB128 varint differences
);
-- Duplicate pages one of whose links led to a unique page: the link rule
-- counts them as new content (crawler/linkrule.c); added like the
-- tables above.
CREATE TABLE IF NOT EXISTS fruitful (
	page_id INTEGER PRIMARY KEY REFERENCES pages(id)
);

-- Scale-out: several processes sharing one crawl on PostgreSQL (see
-- docs/scale-out.md). SQLite has the tables too and never uses them.
-- The processes, by their heartbeats.
CREATE TABLE IF NOT EXISTS workers (
	name TEXT NOT NULL PRIMARY KEY, -- the --worker name
	seen REAL NOT NULL -- Unix time of its last heartbeat
);
-- Which process crawls which host: one at a time, so per-host politeness
-- holds across processes. A lease not renewed by its expiry is free.
CREATE TABLE IF NOT EXISTS leases (
	host TEXT NOT NULL PRIMARY KEY,
	owner TEXT, -- the worker holding it, NULL when free
	expires REAL NOT NULL DEFAULT 0, -- Unix time, unless renewed
	not_before REAL NOT NULL DEFAULT 0 -- Unix time the next request to
	-- the host may start, left by the last owner
);
-- The keys near-duplicate verdicts are serialised on: a process locks the
-- rows of its page's index keys (folded into 2^20 slots) before it
-- judges, so two processes never judge two pages that could match at once.
CREATE TABLE IF NOT EXISTS verdict_keys (
	k INTEGER PRIMARY KEY
);
-- The last seq given out. Taken by each page's transaction as it writes
-- the page and held to its commit, so seq is commit order: a process that
-- has read every page up to seq N has missed none below it.
CREATE TABLE IF NOT EXISTS clock (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	seq INTEGER NOT NULL
);

-- Archives (--warc): the first response archived with each payload
-- digest, so that a later response with the same payload is written as a
-- WARC revisit record pointing at it (docs/archives.md).
CREATE TABLE IF NOT EXISTS warc_payloads (
	digest TEXT NOT NULL PRIMARY KEY, -- WARC-Payload-Digest, "sha1:BASE32"
	url TEXT NOT NULL, -- WARC-Target-URI of that response
	date TEXT NOT NULL, -- its WARC-Date
	warc_file TEXT, -- [added] base name of the WARC file it is in, so
	-- that a later crawl's revisit record can say where (NULL: not kept)
	warc_offset INTEGER, -- [added] of its record's gzip member there
	record_id TEXT -- [added] its WARC-Record-ID
);

-- Cross-crawl dedup (--dedup-against, --dedup-against-cdx): how each page
-- this crawl judged stands to the earlier crawls -- new, the same content
-- as before, or near what was there before -- and the earlier page it
-- repeats (docs/archives.md). Only a crawl with an earlier one has rows.
CREATE TABLE IF NOT EXISTS earlier (
	page_id INTEGER PRIMARY KEY REFERENCES pages(id),
	relation TEXT NOT NULL CHECK (relation IN ('new', 'same', 'near')),
	crawl TEXT, -- the earlier crawl as given (its database or CDXJ file)
	url TEXT, -- the earlier page's URL
	date TEXT, -- when the earlier crawl fetched it, as a WARC-Date
	method TEXT, -- md5 (same text), payload (same bytes), or the near method
	percentage REAL -- similarity in percent, 100 for the same
);

-- Recrawls (--recrawl): what each later visit found at each page. The
-- first crawl is visit 1 and has no rows here; meta's "visit" is the
-- visit under way or last made.
CREATE TABLE IF NOT EXISTS visits (
	id INTEGER PRIMARY KEY,
	visit INTEGER NOT NULL, -- 2 for the first recrawl, then 3 ...
	page_id INTEGER NOT NULL REFERENCES pages(id),
	fetched_at REAL NOT NULL, -- Unix time, seconds
	status INTEGER, -- HTTP status, 0 when none
	outcome TEXT NOT NULL CHECK (outcome IN ('unchanged', 'changed',
	    'gone', 'moved', 'error', 'new')), -- new: first seen in this visit
	md5 TEXT, -- of the text read in this visit, when one was
	verdict TEXT, -- changed and new pages: the verdict now
	was TEXT, -- the page's verdict before (pages.verdict)
	location TEXT, -- where a moved page went
	reason TEXT -- why error (or the detail of another outcome)
);
CREATE INDEX IF NOT EXISTS visits_visit ON visits (visit, outcome);

-- The links a page queued, for the web view's page (store_view_links):
-- without it each view read the whole frontier. A crawl's inserts add a
-- parent id at a time, mostly at the index's end; an older database gains
-- it at its next writer open, which builds it once.
CREATE INDEX IF NOT EXISTS frontier_parent ON frontier (parent_id);

-- The verdict counts every crawl reads when it starts and when it ends
-- (store_counts): without it each count read the whole pages table, their
-- texts and shingle sets included, four minutes at ten million pages on a
-- disk; with it, the index alone. A page's insert adds at the end of its
-- verdict's range; an older database gains it at its next writer open,
-- which builds it once.
CREATE INDEX IF NOT EXISTS pages_verdict ON pages (verdict);

-- Full-text search (`nearcrawl search`, docs/search.md): every judged
-- page's title and the text its near methods read, written with the
-- page's transaction, or afterwards by `nearcrawl index`. SQLite: not
-- here but in a file of its own beside the database, DB-search, written
-- by a thread of the crawl (storage/store_searchw.c has its schema): an
-- FTS5 table whose rowid is pages.id, words lower-cased, not stemmed,
-- their diacritics folded ("cafe" finds "café"); a database made by an
-- earlier nearcrawl keeps the same table in itself, and is read and
-- written there. PostgreSQL: the same text, and a tsvector of it (title
-- weight A, text weight D; the 'simple' configuration: lower case, no
-- stemming, no stop words, diacritics kept) under a GIN index.
-- [pg] CREATE TABLE IF NOT EXISTS search_text (
-- [pg]     page_id INTEGER PRIMARY KEY REFERENCES pages(id),
-- [pg]     title TEXT,
-- [pg]     body TEXT NOT NULL,
-- [pg]     doc tsvector NOT NULL
-- [pg] );
-- [pg] CREATE INDEX IF NOT EXISTS search_text_doc ON search_text USING gin (doc);

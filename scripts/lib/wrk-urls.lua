-- wrk script for scripts/bench/bench.sh: the load generator asks for the
-- pages a crawl asked for, not for one URL over and over, and stops after as
-- many responses as the crawl made requests.
--
--   wrk -t1 -c8 -d 300s -s scripts/lib/wrk-urls.lua URL -- PATHS COUNT
--
-- PATHS: a file of request-targets, one a line ("/news/", "/a.html?x=1"),
-- taken from the test server's access log of a crawl; they are asked for in
-- the file's order, round-robin over the connections, from the first again
-- after the last. COUNT: responses to wait for (default: the number of
-- paths). With -t1 there is one Lua state, so the count covers every
-- connection.
--
-- wrk by itself ends only after -d, so the script ends the process at the
-- COUNT-th response (os.exit: wrk prints no summary then). bench.sh times
-- the process and counts the requests in the server's access log, as it
-- does for the crawlers; the up to 7 requests still in flight at the end
-- are in that count. A run that reaches -d first prints wrk's summary
-- ("N requests in ..."), which tells bench.sh that COUNT was not reached.

local reqs = {}
local next_req = 1
local want = 0
local got = 0

function init(args)
	local f = assert(io.open(args[1] or "", "r"))
	for line in f:lines() do
		if line ~= "" then
			-- Prebuilt: request() then costs a table look-up.
			reqs[#reqs + 1] = wrk.format("GET", line)
		end
	end
	f:close()
	assert(#reqs > 0, "wrk-urls.lua: no paths in " .. args[1])
	want = tonumber(args[2] or "") or #reqs
end

function request()
	local r = reqs[next_req]
	next_req = next_req % #reqs + 1
	return r
end

function response(status, headers, body)
	got = got + 1
	if got >= want then
		os.exit(0)
	end
end

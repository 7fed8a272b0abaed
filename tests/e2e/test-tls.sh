#!/bin/sh
# HTTPS with a CA of the test's own (openssl), served by a tiny Python
# server on 127.0.0.1: untrusted without --cacert, fetched with --cacert,
# --capath or --insecure (which warns), and a resume alone keeps the
# trust it was given (stored with the crawl). compare takes --cacert too.
. tests/e2e/lib.sh

T=$E2E_TMP
H=tls.lab.test
TLS_PID=""
tls_cleanup() {
	if [ -n "$TLS_PID" ]; then
		kill "$TLS_PID" 2>/dev/null
		wait "$TLS_PID" 2>/dev/null
	fi
	e2e_cleanup
}
trap tls_cleanup EXIT INT TERM

# ---- a CA and a certificate for $H ------------------------------------------
cat >"$T/ca.cnf" <<CNF
[req]
distinguished_name = dn
x509_extensions = v3_ca
prompt = no
[dn]
CN = nearcrawl test CA
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF
printf '%s\n' "basicConstraints = CA:FALSE" "keyUsage = critical, digitalSignature" \
    "extendedKeyUsage = serverAuth" "subjectAltName = DNS:$H" >"$T/srv.ext"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$T/ca.key" -out "$T/ca.pem" -days 2 -config "$T/ca.cnf" 2>/dev/null &&
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$T/srv.key" -out "$T/srv.csr" -subj "/CN=$H" 2>/dev/null &&
openssl x509 -req -in "$T/srv.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
    -CAcreateserial -out "$T/srv.pem" -days 2 -extfile "$T/srv.ext" 2>/dev/null
eq "openssl made a CA and a server certificate" "$?" 0
mkdir "$T/capath" && cp "$T/ca.pem" "$T/capath/" && openssl rehash "$T/capath" 2>/dev/null
eq "openssl rehash made a CA directory" "$(ls "$T/capath" | grep -c '\.0$')" 1

# ---- a small site over HTTPS --------------------------------------------------
mkdir "$T/site"
printf 'User-agent: *\nAllow: /\n' >"$T/site/robots.txt"
for p in a b c d; do
	{
		echo "<!DOCTYPE html><html><head><title>Page $p</title></head><body>"
		echo "<h1>Seminar $p</h1><p>Talk $p about topic number $p and"
		echo "its many words that make this page its own: $p $p $p.</p>"
		for n in a b c d; do echo "<a href=\"/$n.html\">$n</a>"; done
		echo "</body></html>"
	} >"$T/site/$p.html"
done
cp "$T/site/a.html" "$T/site/index.html"
cat >"$T/https.py" <<'PY'
import functools, http.server, os, ssl, sys
root, cert, key, portfile = sys.argv[1:5]
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
handler = functools.partial(Quiet, directory=root)
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
PY
python3 "$T/https.py" "$T/site" "$T/srv.pem" "$T/srv.key" "$T/port" &
TLS_PID=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
PORT=$(cat "$T/port" 2>/dev/null)
eq "HTTPS server listening" "$([ -n "$PORT" ] && echo yes)" yes
R="--resolve $H:$PORT:127.0.0.1"
SEED="https://$H:$PORT/"
pages() { q "$1" "SELECT count(*) FROM pages WHERE status = 200"; }

# ---- not trusted: a certificate error, said -------------------------------
"$NEARCRAWL" crawl -d "$T/untrusted.db" --delay-ms 0 --max-retries 0 \
    --retry-base-ms 10 --host-max-failures 1 $R "$SEED" 2>"$T/untrusted.err"
eq "untrusted: nothing fetched, exits 1" "$?" 1
ok "untrusted: the certificate problem is said" grep -qi "certificate" "$T/untrusted.err"
eq "untrusted: host given up for its certificate" \
    "$(q "$T/untrusted.db" "SELECT count(*) FROM hosts WHERE gave_up LIKE '%certificate%'")" 1

# ---- --cacert, kept by a resume -------------------------------------------
"$NEARCRAWL" crawl -d "$T/ca.db" --quiet --delay-ms 0 --max-pages 2 \
    --cacert "$T/ca.pem" $R "$SEED" 2>"$T/ca.err"
eq "--cacert: stopped at --max-pages, exits 3" "$?" 3
eq "--cacert: pages fetched" "$(pages "$T/ca.db")" 2
eq "--cacert: stored" "$(q "$T/ca.db" "SELECT value FROM meta WHERE key = 'cacert'")" \
    "$(cd "$T" && pwd -P)/ca.pem"
# The page limit is stored too: the resume lifts it and gives nothing else.
"$NEARCRAWL" crawl -d "$T/ca.db" --max-pages 0 2>"$T/ca-resume.err"
eq "resume alone: exits 0" "$?" 0
eq "resume alone still trusts the CA: the rest fetched" "$(pages "$T/ca.db")" 5
ok "resume alone: no certificate error" sh -c "! grep -qi certificate '$T/ca-resume.err'"

# ---- --capath ---------------------------------------------------------------
"$NEARCRAWL" crawl -d "$T/capath.db" --quiet --delay-ms 0 \
    --capath "$T/capath" $R "$SEED" 2>"$T/capath.err"
eq "--capath: exits 0" "$?" 0
eq "--capath: pages fetched" "$(pages "$T/capath.db")" 5

# ---- --insecure: fetched, warned, kept --------------------------------------
WARN="nearcrawl: warning: --insecure: TLS certificates and host names are not verified"
"$NEARCRAWL" crawl -d "$T/insecure.db" --quiet --delay-ms 0 --max-pages 2 \
    --insecure $R "$SEED" 2>"$T/insecure.err"
eq "--insecure: stopped at --max-pages, exits 3" "$?" 3
eq "--insecure: pages fetched" "$(pages "$T/insecure.db")" 2
ok "--insecure: warns" grep -q "^$WARN" "$T/insecure.err"
"$NEARCRAWL" crawl -d "$T/insecure.db" --quiet --max-pages 0 \
    2>"$T/insecure2.err"
eq "--insecure resume alone: exits 0" "$?" 0
eq "--insecure resume alone: the rest fetched" "$(pages "$T/insecure.db")" 5
ok "--insecure resume alone: warns again" grep -q "^$WARN" "$T/insecure2.err"

# ---- compare over HTTPS -------------------------------------------------------
"$NEARCRAWL" compare "https://$H:$PORT/a.html" "https://$H:$PORT/index.html" \
    --cacert "$T/ca.pem" $R >"$T/cmp.out" 2>"$T/cmp.err"
eq "compare --cacert: exits 0" "$?" 0
ok "compare --cacert: an exact copy" grep -qi "exact" "$T/cmp.out"
"$NEARCRAWL" compare "https://$H:$PORT/a.html" "https://$H:$PORT/index.html" \
    $R >/dev/null 2>"$T/cmp2.err"
eq "compare without --cacert: fails" "$(test "$?" -ne 0 && echo yes)" yes
ok "compare without --cacert: says why" grep -qi "certificate" "$T/cmp2.err"
e2e_finish

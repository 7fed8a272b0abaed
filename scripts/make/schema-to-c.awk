# schema-to-c.awk: storage/schema.sql as C source, for the build (Makefile).
#
#   store_schema_sql     the file's text, byte for byte
#   store__added_columns the columns marked "-- [added]": their table,
#                        name and declaration, in file order
#
# Run with LC_ALL=C, so lengths and matches are in bytes.

function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	return "\"" s "\\n\""
}

BEGIN {
	print "/* Generated from storage/schema.sql by"
	print "   scripts/make/schema-to-c.awk: do not edit. */"
	print "#include \"storage/store_int.h\""
	print ""
	print "const char store_schema_sql[] ="
	n = 0
}

{
	print "\t" cstr($0)
}

/^CREATE TABLE / {
	table = ($3 == "IF") ? $6 : $3
}

/-- \[added\]/ {
	decl = $0
	sub(/[ \t]*--.*$/, "", decl)
	sub(/^[ \t]+/, "", decl)
	sub(/,$/, "", decl)
	name = decl
	sub(/[ \t].*$/, "", name)
	sub(/^[^ \t]+[ \t]+/, "", decl)
	added[n++] = "\t{ \"" table "\", \"" name "\", \"" decl "\" },"
}

END {
	print "\t\"\";"
	print ""
	print "const struct store__added store__added_columns[] = {"
	for (i = 0; i < n; i++)
		print added[i]
	print "\t{ NULL, NULL, NULL },"
	print "};"
}

//go:build !duckdb_arrow

package store

// DuckDB's Arrow bridge is compiled only with the build tag duckdb_arrow.
// Without it the build stops here, with a name that says what to do:
// go build -tags duckdb_arrow ./...
var _ = build_with_tags_duckdb_arrow

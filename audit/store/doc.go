// Package store is the audit's DuckDB database: it opens one in memory or
// in a file (read-only for `crawlaudit query`), bounds DuckDB's memory and
// tells it where to spill, takes batches of judged rows through DuckDB's
// Arrow bridge, runs the embedded SQL of package queries, and reads large
// results back in chunks that fit in memory.
//
// DuckDB's Arrow bridge needs the build tag duckdb_arrow: without it the
// package does not build, and the error names the tag.
//
// A Store is not safe for concurrent use: its one connection carries the
// temporary tables the audit's queries build step by step.
package store

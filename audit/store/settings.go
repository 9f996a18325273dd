package store

import (
	"os"
	"strconv"
	"strings"
)

// MemoryLimit is DuckDB's memory_limit for the stores opened from then on
// (CRAWLAUDIT_DUCKDB_MEMORY sets it): the most its buffer pool holds before
// it spills to its temporary directory, where DuckDB's own default is 80% of
// the machine's memory. It leaves room for Go's share and for DuckDB's memory
// outside its buffer pool, so that the process stays under 1 GiB (the
// figures are in docs/performance.md).
var MemoryLimit = func() string {
	if v := os.Getenv("CRAWLAUDIT_DUCKDB_MEMORY"); v != "" {
		return v
	}
	return "320MB"
}()

// MemoryLimitAfterRead is DuckDB's memory_limit once the logs are read, ""
// when CRAWLAUDIT_DUCKDB_MEMORY sets MemoryLimit: the queries afterwards go
// one join or aggregate a step and spill, and the files the audit writes need
// Go's share (the block list of a hostile log holds its addresses in Go).
var MemoryLimitAfterRead = func() string {
	if os.Getenv("CRAWLAUDIT_DUCKDB_MEMORY") != "" {
		return ""
	}
	return "256MB"
}()

// Quote quotes s as an SQL string literal.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// parseBytes parses a DuckDB memory size ("320MB", "1GB", "512MiB",
// "1.5 GB"), 0 when it is not one.
func parseBytes(v string) int64 {
	v = strings.ToUpper(strings.TrimSpace(v))
	units := []struct {
		suffix string
		mult   float64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || f < 0 {
				return 0
			}
			return int64(f * u.mult)
		}
	}
	return 0
}

//go:build duckdb_arrow

package audit

import (
	"runtime"
	"testing"
)

// TestSQLThreads: the queries after the read run on one DuckDB thread only
// for a lean audit whose counts and claims are both small; a full audit,
// or a lean one with many counts or claims (a log of invented addresses),
// keeps every core.
func TestSQLThreads(t *testing.T) {
	all := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		name           string
		lean           bool
		stored, claims int
		spilled        int32 // claims already handed to DuckDB
		want           int
	}{
		{"full audit", false, 0, 10, 0, all},
		{"lean, realistic month", true, 206, 300, 0, 1},
		{"lean, counts at the bound", true, maxOneThreadRows, 300, 0, all},
		{"lean, claims at the bound", true, 206, maxOneThreadRows, 0, all},
		{"lean, claims spilled past the bound", true, 206, 10, maxOneThreadRows, all},
		{"lean, just under both bounds", true, maxOneThreadRows - 1, maxOneThreadRows - 1, 0, 1},
	} {
		j := &judge{claims: &claims{list: make([]claim, c.claims), base: c.spilled}}
		if c.lean {
			j.lean = newLeanCounts(false)
			j.lean.stored = c.stored
		}
		if got := sqlThreads(j); got != c.want {
			t.Errorf("%s: %d threads, want %d", c.name, got, c.want)
		}
	}
}

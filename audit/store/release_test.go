//go:build duckdb_arrow

package store

import (
	"context"
	"testing"
)

// TestStoreRelease: Release leaves the memory limit and the allocator's
// settings as they were (the ordinary ones, and the ones for long strings)
// (the limit to the tenth of a MiB DuckDB shows) and the tables whole, having spilled what did not fit 32 MB.
func TestStoreRelease(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Exec(ctx, "CREATE TABLE big AS SELECT range AS i, repeat('x', 100) || range AS v FROM range(1000000)"); err != nil {
		t.Fatal(err)
	}
	settings := func() [3]string {
		var v [3]string
		err := s.QueryRow(ctx, `SELECT current_setting('memory_limit'), current_setting('allocator_flush_threshold')::VARCHAR,
			current_setting('allocator_bulk_deallocation_flush_threshold')::VARCHAR`).Scan(&v[0], &v[1], &v[2])
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, setup := range []string{"SET memory_limit = '256MB'", "SET memory_limit = '300MB'; " + longStringAllocator} {
		if err := s.Exec(ctx, setup); err != nil {
			t.Fatal(err)
		}
		before := settings()
		s.Release(ctx)
		// DuckDB shows the limit to a tenth of a MiB, and so it is set back.
		after := settings()
		if d := parseBytes(after[0]) - parseBytes(before[0]); after[1] != before[1] || after[2] != before[2] || d < -(1<<20)/10 || d > (1<<20)/10 {
			t.Errorf("after %s: settings %q, want %q", setup, after, before)
		}
		var n, sum int64
		if err := s.QueryRow(ctx, "SELECT count(*), sum(length(v)) FROM big").Scan(&n, &sum); err != nil {
			t.Fatal(err)
		}
		if n != 1000000 || sum != 100*1000000+5888890 {
			t.Errorf("after %s: %d rows of %d bytes, want 1000000 of %d", setup, n, sum, 100*1000000+5888890)
		}
	}
}

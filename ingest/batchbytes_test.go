package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestBatchesCutByBytes: lines with huge URLs make batches of at most
// about maxBatchBytes of lines, not BatchRows rows of them (5,000
// lines of 60 KB URLs are 300 MB of text in one batch otherwise).
func TestBatchesCutByBytes(t *testing.T) {
	url := "/" + strings.Repeat("a", 60<<10)
	var b strings.Builder
	const n = 600
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `203.0.113.%d - - [02/Oct/2026:10:00:00 +0000] "GET %s%d HTTP/1.1" 200 5 "-" "Bot/1.0"`+"\n", i%250, url, i)
	}
	p := filepath.Join(t.TempDir(), "long.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var rows, batches, biggest int
	acc, err := Run(context.Background(), []string{p}, Options{Workers: 1, MaxLineBytes: 200 << 10}, func(rec arrow.RecordBatch) error {
		batches++
		rows += int(rec.NumRows())
		biggest = max(biggest, int(rec.NumRows()))
		return nil
	})
	if err != nil || acc.Parsed != n {
		t.Fatalf("parsed %d of %d: %v", acc.Parsed, n, err)
	}
	lineBytes := len(b.String()) / n
	if limit := maxBatchBytes/lineBytes + 1; biggest > limit || rows != n {
		t.Errorf("%d rows in %d batches, the biggest %d rows (%d MB of lines); want at most %d rows", rows, batches, biggest, biggest*lineBytes>>20, limit)
	}
}

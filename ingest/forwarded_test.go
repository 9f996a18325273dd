package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The forwarded_for column comes after every column that was there before
// it, whose indices do not move.
func TestForwardedForColumnPlace(t *testing.T) {
	want := []string{"ts", "host", "client_ip", "method", "target", "protocol", "status", "bytes", "referer", "user_agent", "file", "line", "forwarded_for", "scheme", "signature_agent", "signature_input", "signature", "retry_after"}
	got := make([]string, 0, Schema.NumFields())
	for _, f := range Schema.Fields() {
		got = append(got, f.Name)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Schema columns %v, want %v", got, want)
	}
	if ColLine != 11 || ColForwardedFor != 12 || ColSignature != 16 || ColRetryAfter != 17 || NumCols != 18 || Schema.NumFields() != NumCols {
		t.Errorf("ColLine %d ColForwardedFor %d NumCols %d, fields %d", ColLine, ColForwardedFor, NumCols, Schema.NumFields())
	}
	if f := Schema.Field(ColForwardedFor); !f.Nullable || !arrow.TypeEqual(f.Type, arrow.BinaryTypes.String) {
		t.Errorf("forwarded_for is %s, nullable %v; want nullable utf8", f.Type, f.Nullable)
	}
}

// TestForwardedForColumn: the header is kept whole, invalid UTF-8 repaired,
// null where the line has "-" or nothing, in batches where it appears on
// no row, on the first row, mid-batch and on the last row.
func TestForwardedForColumn(t *testing.T) {
	ffs := []string{
		"-", "-", "-", "-", // a batch without the field
		"-", "-", "203.0.113.7, 10.0.0.5", "-", // first mid-batch
		"198.51.100.9\xff", "-", "", "2001:db8::7", // first row, last row; invalid UTF-8
		"-", // a last, partial batch
	}
	want := []string{
		"<nil>", "<nil>", "<nil>", "<nil>",
		"<nil>", "<nil>", "203.0.113.7, 10.0.0.5", "<nil>",
		`198.51.100.9\xFF`, "<nil>", "<nil>", "2001:db8::7",
		"<nil>",
	}
	var log strings.Builder
	for i, ff := range ffs {
		fmt.Fprintf(&log, "192.0.2.%d [01/Oct/2026:00:00:%02d +0000] \"GET /p/%d HTTP/1.1\" 200 \"%s\"\n", i+1, i, i, ff)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rows []row
	var nulls []int
	acc, err := Run(context.Background(), []string{"-"}, Options{
		Stdin:     strings.NewReader(log.String()),
		LogFormat: `$remote_addr [$time_local] "$request" $status "$http_x_forwarded_for"`,
		BatchRows: 4,
		Workers:   1,
		Allocator: mem,
	}, func(rec arrow.RecordBatch) error {
		c := rec.Column(ColForwardedFor)
		if c.Len() != int(rec.NumRows()) {
			t.Errorf("forwarded_for has %d rows of %d", c.Len(), rec.NumRows())
		}
		if _, ok := c.(*array.String); !ok {
			t.Errorf("forwarded_for is %T", c)
		}
		nulls = append(nulls, c.NullN())
		rows = append(rows, rowsOf(rec)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if acc.Parsed != int64(len(ffs)) || len(rows) != len(ffs) {
		t.Fatalf("parsed %d rows, want %d: %+v", len(rows), len(ffs), acc)
	}
	for i, r := range rows {
		if r.Line != int64(i+1) {
			t.Fatalf("row %d is line %d: rows out of order", i, r.Line)
		}
		if r.FF != want[i] {
			t.Errorf("line %d: forwarded_for %q, want %q", r.Line, r.FF, want[i])
		}
		if !utf8.ValidString(r.FF) {
			t.Errorf("line %d: forwarded_for %q is not UTF-8", r.Line, r.FF)
		}
		if r.IP != fmt.Sprintf("192.0.2.%d", i+1) {
			t.Errorf("line %d: client %q, the forwarded field must not change it", r.Line, r.IP)
		}
	}
	if fmt.Sprint(nulls) != "[4 3 2 1]" {
		t.Errorf("nulls per batch %v, want [4 3 2 1]", nulls)
	}
}

// A format that never logs the header gives an all-null column.
func TestForwardedForColumnAbsent(t *testing.T) {
	rows, _, acc, err := collect(t, []string{"-"}, Options{Stdin: strings.NewReader(tsvLog(50)), BatchRows: 16})
	if err != nil {
		t.Fatal(err)
	}
	if acc.Parsed != 50 {
		t.Fatalf("accounting %+v", acc)
	}
	for _, r := range rows {
		if r.FF != "<nil>" {
			t.Fatalf("line %d: forwarded_for %q, want null", r.Line, r.FF)
		}
	}
}

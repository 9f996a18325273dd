package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// The stream layer is tested with small parsers of its own, so that its
// tests do not depend on the real ones in logfmt:
//
//	tsv:  TIME \t IP \t METHOD \t TARGET \t STATUS \t BYTES \t UA   (7 tab-separated fields)
//	kv:   {"t":TIME,...}  — any line starting with '{' and ending with '}'; no fields
//	hdr:  stateful; "#Fields: a b c" sets the number of space-separated
//	      fields a data line must have; TIME is the first field, IP the second.

type tsvParser struct{}

func (tsvParser) Parse(line []byte, r *logfmt.Row) error {
	r.Reset()
	var f [7][]byte
	for i := range 6 {
		j := bytes.IndexByte(line, '\t')
		if j < 0 {
			return logfmt.ErrFieldCount
		}
		f[i], line = line[:j], line[j+1:]
	}
	if bytes.IndexByte(line, '\t') >= 0 {
		return logfmt.ErrFieldCount
	}
	f[6] = line
	t, ok := logfmt.ParseISO8601(f[0])
	if !ok {
		return logfmt.ErrBadTimestamp
	}
	r.Time = t
	r.ClientIP = f[1]
	r.Method = f[2]
	r.Target = f[3]
	r.Protocol = []byte("HTTP/1.1")
	st := 0
	for _, c := range f[4] {
		if c < '0' || c > '9' {
			return logfmt.ErrBadStatus
		}
		st = st*10 + int(c-'0')
	}
	if len(f[4]) != 3 {
		return logfmt.ErrBadStatus
	}
	r.Status = int32(st)
	if string(f[5]) != "-" {
		var n int64
		for _, c := range f[5] {
			if c < '0' || c > '9' {
				return logfmt.ErrBadBytes
			}
			n = n*10 + int64(c-'0')
		}
		r.Bytes = n
	}
	if string(f[6]) != "-" {
		r.UserAgent = f[6]
	}
	return nil
}

type kvParser struct{}

func (kvParser) Parse(line []byte, r *logfmt.Row) error {
	r.Reset()
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return logfmt.ErrNotThisFormat
	}
	r.Time = 1
	r.ClientIP = []byte("10.0.0.1")
	return nil
}

type hdrParser struct{ fields int }

func (p *hdrParser) Parse(line []byte, r *logfmt.Row) error {
	r.Reset()
	if rest, ok := bytes.CutPrefix(line, []byte("#Fields: ")); ok {
		p.fields = len(bytes.Fields(rest))
		return logfmt.ErrDirective
	}
	if len(line) > 0 && line[0] == '#' {
		return logfmt.ErrDirective
	}
	f := bytes.Fields(line)
	if p.fields == 0 || len(f) != p.fields || len(f) < 2 {
		return logfmt.ErrFieldCount
	}
	t, ok := logfmt.ParseISO8601(f[0])
	if !ok {
		return logfmt.ErrBadTimestamp
	}
	r.Time = t
	r.ClientIP = f[1]
	return nil
}

var testFormats = []logfmt.Format{
	{Name: "hdr", New: func() logfmt.Parser { return &hdrParser{} }, Stateful: true, Sniffable: true},
	{Name: "kv", New: func() logfmt.Parser { return kvParser{} }, Sniffable: true},
	{Name: "tsv", New: func() logfmt.Parser { return tsvParser{} }, Sniffable: true},
}

// tsvLine returns line i of a generated tsv log.
func tsvLine(i int) string {
	ua := [...]string{"Mozilla/5.0 (compatible; Googlebot/2.1)", "curl/8.0", "GPTBot/1.2", "-"}[i%4]
	return fmt.Sprintf("2026-10-01T%02d:%02d:%02dZ\t192.0.2.%d\tGET\t/p/%d?q=%d\t200\t%d\t%s",
		(i/3600)%24, (i/60)%60, i%60, i%250, i, i*7, i*13, ua)
}

// tsvLog returns n generated tsv lines, each ending in '\n'.
func tsvLog(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(tsvLine(i))
		b.WriteByte('\n')
	}
	return b.String()
}

func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gzipBytes(t testing.TB, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// row is one row of a batch, in plain Go values, for comparisons.
type row struct {
	TS                                           int64
	Host, IP, Method, Target, Proto, Referer, UA string // "<nil>" for null
	Status                                       int32  // -1 for null
	Bytes                                        int64  // -1 for null
	File                                         string
	Line                                         int64
	FF                                           string // forwarded_for; "<nil>" for null
}

func strAt(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "<nil>"
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i)
	case *array.Dictionary:
		return a.Dictionary().(*array.String).Value(a.GetValueIndex(i))
	}
	panic(fmt.Sprintf("unexpected array %T", a))
}

func rowsOf(rec arrow.RecordBatch) []row {
	var out []row
	for i := range int(rec.NumRows()) {
		r := row{
			TS:      int64(rec.Column(ColTime).(*array.Timestamp).Value(i)),
			Host:    strAt(rec.Column(ColHost), i),
			IP:      strAt(rec.Column(ColClientIP), i),
			Method:  strAt(rec.Column(ColMethod), i),
			Target:  strAt(rec.Column(ColTarget), i),
			Proto:   strAt(rec.Column(ColProtocol), i),
			Referer: strAt(rec.Column(ColReferer), i),
			UA:      strAt(rec.Column(ColUserAgent), i),
			Status:  -1,
			Bytes:   -1,
			File:    strAt(rec.Column(ColFile), i),
			Line:    rec.Column(ColLine).(*array.Int64).Value(i),
			FF:      strAt(rec.Column(ColForwardedFor), i),
		}
		if c := rec.Column(ColStatus); !c.IsNull(i) {
			r.Status = c.(*array.Int32).Value(i)
		}
		if c := rec.Column(ColBytes); !c.IsNull(i) {
			r.Bytes = c.(*array.Int64).Value(i)
		}
		out = append(out, r)
	}
	return out
}

// collect runs Run with a checked allocator and returns the rows sorted by
// file and line, the number of batches, and the accounting.
func collect(t testing.TB, inputs []string, opts Options) ([]row, int, *Accounting, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	opts.Allocator = mem
	if opts.Formats == nil {
		opts.Formats = testFormats
	}
	var mu sync.Mutex
	var rows []row
	batches := 0
	acc, err := Run(context.Background(), inputs, opts, func(rec arrow.RecordBatch) error {
		mu.Lock()
		defer mu.Unlock()
		if !rec.Schema().Equal(Schema) {
			t.Errorf("batch schema %v, want %v", rec.Schema(), Schema)
		}
		if opts.BatchRows > 0 && rec.NumRows() > int64(opts.BatchRows) {
			t.Errorf("batch of %d rows, more than BatchRows %d", rec.NumRows(), opts.BatchRows)
		}
		batches++
		rows = append(rows, rowsOf(rec)...)
		return nil
	})
	slices.SortFunc(rows, func(a, b row) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return int(a.Line - b.Line)
	})
	return rows, batches, acc, err
}

// checkInvariant checks parsed + rejected = lines, in total and per file,
// and that the reasons add up.
func checkInvariant(t *testing.T, acc *Accounting) {
	t.Helper()
	if acc.Parsed+acc.Rejected != acc.Lines {
		t.Errorf("parsed %d + rejected %d != lines %d", acc.Parsed, acc.Rejected, acc.Lines)
	}
	var sum int64
	for _, n := range acc.RejectedReasons {
		sum += n
	}
	if sum != acc.Rejected {
		t.Errorf("rejected reasons add up to %d, rejected = %d", sum, acc.Rejected)
	}
	var lines int64
	for _, f := range acc.PerFile {
		if f.Parsed+f.Rejected != f.Lines {
			t.Errorf("%s: parsed %d + rejected %d != lines %d", f.Name, f.Parsed, f.Rejected, f.Lines)
		}
		lines += f.Lines
	}
	if lines != acc.Lines {
		t.Errorf("per-file lines add up to %d, lines = %d", lines, acc.Lines)
	}
}

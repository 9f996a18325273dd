package ingest

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// splitInputs are small files with what a cut can fall into: CRLF ends,
// empty lines (LF and CRLF), a file without a final newline, lines longer
// than a range, a file of newlines only, of one line, and empty.
var splitInputs = []string{
	"",
	"a",
	"\n",
	"a\n",
	"\n\n\n",
	"\r\n\r\n",
	"ab\r\ncd\r\nef",
	"one\ntwo\n\nfour\r\n\r\nsix",
	"x\n" + strings.Repeat("long", 9) + "\ny\n",
	strings.Repeat("z", 17),
	"\n" + strings.Repeat("w", 11) + "\r\n\n" + strings.Repeat("v", 5) + "\n",
}

// readRangeLines reads the range [start, end) of the file path of size
// bytes with a rangeReader and returns what it read and the number of its
// first line.
func readRangeLines(t *testing.T, path string, start, end, size int64) ([]byte, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr := &rangeReader{f: f, end: end, size: size}
	if end == size {
		rr.end = -1
	}
	skipped, err := rr.start(start)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rr)
	if err != nil {
		t.Fatal(err)
	}
	before, err := CountNewlines(path, 0, start)
	if err != nil {
		t.Fatal(err)
	}
	return data, before + skipped + 1
}

// TestRangeReaderEverySplit cuts each of splitInputs at every pair of
// points (so into two or three ranges, empty ones included) and checks
// that the ranges read the file whole, each line once and by one range,
// each range from the start of a line, with its first line numbered as
// the file numbers it.
func TestRangeReaderEverySplit(t *testing.T) {
	dir := t.TempDir()
	for k, in := range splitInputs {
		path := filepath.Join(dir, fmt.Sprintf("in%d.log", k))
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		size := int64(len(in))
		for a := int64(0); a <= size; a++ {
			for b := a; b <= size; b++ {
				cuts := []int64{0}
				for _, c := range []int64{a, b} {
					if c > cuts[len(cuts)-1] && c < size {
						cuts = append(cuts, c)
					}
				}
				cuts = append(cuts, size)
				var whole []byte
				for i := 0; i+1 < len(cuts); i++ {
					data, line := readRangeLines(t, path, cuts[i], cuts[i+1], size)
					at := int64(len(whole))
					if len(data) > 0 {
						if at > 0 && in[at-1] != '\n' {
							t.Errorf("%q cut at %v: range %d begins mid-line at %d", in, cuts, i, at)
						}
						if want := int64(strings.Count(in[:at], "\n")) + 1; line != want {
							t.Errorf("%q cut at %v: range %d numbers its first line %d, want %d", in, cuts, i, line, want)
						}
						if at < cuts[i] || at >= cuts[i+1] {
							t.Errorf("%q cut at %v: range %d reads a line that begins at %d", in, cuts, i, at)
						}
					}
					whole = append(whole, data...)
				}
				if string(whole) != in {
					t.Errorf("%q cut at %v: the ranges read %q", in, cuts, whole)
				}
			}
		}
	}
}

// splitLog is a combined log with what the stream layer must count the
// same whatever the cuts: a byte order mark, CRLF ends, empty lines,
// lines that are not requests (rejected with samples), a bad timestamp, an
// invalid client address, a line longer than MaxLineBytes that fits a
// block buffer and one that does not, a cut quoted field, and no final
// newline. The long lines are longer than many ranges.
func splitLog() string {
	line := func(i int, ip, ua string) string {
		return fmt.Sprintf(`%s - - [01/Oct/2026:00:00:%02d +0000] "GET /p%d HTTP/1.1" 200 %d "-" "%s"`, ip, i, i, 10*i, ua)
	}
	var b strings.Builder
	b.WriteString("\xEF\xBB\xBF" + line(1, "203.0.113.1", "Mozilla/5.0 (compatible; Googlebot/2.1)") + "\n")
	b.WriteString("\n")
	b.WriteString(line(2, "203.0.113.2", "curl/8.0") + "\r\n")
	b.WriteString("this is not a request\n")
	b.WriteString(line(3, "2001:db8::3", "GPTBot/1.2") + "\n")
	b.WriteString(strings.Replace(line(4, "203.0.113.4", "x"), "Oct", "Foo", 1) + "\n")
	b.WriteString(line(5, "203.0.113.5", strings.Repeat("long ", 40)) + "\n") // > MaxLineBytes
	b.WriteString("\r\n")
	b.WriteString(line(6, "999.1.1.1", "bingbot") + "\n")
	b.WriteString("this is not a request either\r\n")
	b.WriteString(line(7, "203.0.113.7", strings.Repeat("longer ", 100)) + "\n") // > the block buffer
	b.WriteString(`203.0.113.8 - - [01/Oct/2026:00:00:08 +0000] "GET /cut HTTP/1.1" 200 1 "-" "Mozilla` + "\n")
	b.WriteString(line(9, "203.0.113.9", "Mozilla/5.0") + "\n")
	b.WriteString("\n\n")
	b.WriteString(line(10, "203.0.113.10", "last, without a newline"))
	return b.String()
}

// splitOptions are small limits, so that the cuts fall around blocks and
// over-long lines of every kind.
func splitOptions(mem memory.Allocator) Options {
	return Options{Formats: logfmt.Formats(), MaxLineBytes: 150, BlockBytes: 256, Workers: 2, BatchRows: 3, Allocator: mem}
}

// rangeTotal is the accounting of a file's ranges put together as
// cmd/crawlaudit-beam puts parts together: counts added, the earliest
// From and latest To, and the first samples of each reason in range order.
func rangeTotal(accs []*Accounting, maxSamples int) *Accounting {
	out := &Accounting{RejectedReasons: map[string]int64{}, Samples: []Sample{}}
	firsts := func(all []Sample) []Sample {
		var keep []Sample
		n := map[string]int{}
		for _, s := range all {
			if n[s.Reason] < maxSamples {
				n[s.Reason]++
				keep = append(keep, s)
			}
		}
		slices.SortStableFunc(keep, func(a, b Sample) int { return cmp.Compare(a.Reason, b.Reason) })
		return keep
	}
	var samples, clientSamples []Sample
	for _, a := range accs {
		out.Files += a.Files
		out.Lines += a.Lines
		out.Parsed += a.Parsed
		out.Rejected += a.Rejected
		out.Directives += a.Directives
		for r, n := range a.RejectedReasons {
			out.RejectedReasons[r] += n
		}
		for r, n := range a.InvalidClients {
			if out.InvalidClients == nil {
				out.InvalidClients = map[string]int64{}
			}
			out.InvalidClients[r] += n
		}
		if !a.From.IsZero() && (out.From.IsZero() || a.From.Before(out.From)) {
			out.From = a.From
		}
		if !a.To.IsZero() && (out.To.IsZero() || a.To.After(out.To)) {
			out.To = a.To
		}
		samples = append(samples, a.Samples...)
		clientSamples = append(clientSamples, a.InvalidClientSamples...)
	}
	out.Samples = firsts(samples)
	if out.Samples == nil {
		out.Samples = []Sample{}
	}
	out.InvalidClientSamples = firsts(clientSamples)
	return out
}

// ownRows copies the strings of rows, which alias a batch released when
// the sink returns.
func ownRows(rows []row) []row {
	for i := range rows {
		r := &rows[i]
		for _, s := range []*string{&r.Host, &r.IP, &r.Method, &r.Target, &r.Proto, &r.Referer, &r.UA, &r.File, &r.FF} {
			*s = strings.Clone(*s)
		}
	}
	return rows
}

// runRanges reads the ranges of a file (numbering their lines with
// CountNewlines, as a distributed audit would) and returns their rows,
// sorted by line, and their accounting put together.
func runRanges(t *testing.T, ranges []Range, opts Options) ([]row, *Accounting) {
	t.Helper()
	var rows []row
	var accs []*Accounting
	var mu sync.Mutex
	var before int64
	for i, rg := range ranges {
		rg.NewlinesBefore = before
		acc, err := RunRange(context.Background(), rg, opts, func(rec arrow.RecordBatch) error {
			mu.Lock()
			defer mu.Unlock()
			if !rec.Schema().Equal(Schema) {
				t.Errorf("batch schema %v", rec.Schema())
			}
			rows = append(rows, ownRows(rowsOf(rec))...)
			return nil
		})
		if err != nil {
			t.Fatalf("range %d [%d, %d): %v", i, rg.Start, rg.End, err)
		}
		want := 0
		if rg.Start == 0 {
			want = 1 // the file is counted by its first range
		}
		if acc.Files != want || len(acc.PerFile) != 1 {
			t.Errorf("range %d [%d, %d): %d files, %d per file", i, rg.Start, rg.End, acc.Files, len(acc.PerFile))
		}
		accs = append(accs, acc)
		n, err := CountNewlines(rg.File, rg.Start, rg.End)
		if err != nil {
			t.Fatal(err)
		}
		before += n
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.Line, b.Line) })
	return rows, rangeTotal(accs, DefaultSamplesPerReason)
}

// wholeRun reads path with Run.
func wholeRun(t *testing.T, path string, opts Options) ([]row, *Accounting) {
	t.Helper()
	var rows []row
	var mu sync.Mutex
	acc, err := Run(context.Background(), []string{path}, opts, func(rec arrow.RecordBatch) error {
		mu.Lock()
		defer mu.Unlock()
		rows = append(rows, ownRows(rowsOf(rec))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.Line, b.Line) })
	return rows, acc
}

// sameAccounting returns how got differs from Run's want ("" when it does
// not), in what summary.json shows.
func sameAccounting(got, want *Accounting) string {
	var diffs []string
	check := func(what string, g, w any) {
		if fmt.Sprint(g) != fmt.Sprint(w) {
			diffs = append(diffs, fmt.Sprintf("%s %v, want %v", what, g, w))
		}
	}
	check("files", got.Files, want.Files)
	check("lines", got.Lines, want.Lines)
	check("parsed", got.Parsed, want.Parsed)
	check("rejected", got.Rejected, want.Rejected)
	check("directives", got.Directives, want.Directives)
	check("from", got.From, want.From)
	check("to", got.To, want.To)
	check("reasons", got.RejectedReasons, want.RejectedReasons)
	check("invalid clients", got.InvalidClients, want.InvalidClients)
	check("samples", got.Samples, want.Samples)
	check("invalid client samples", got.InvalidClientSamples, want.InvalidClientSamples)
	return strings.Join(diffs, "; ")
}

// TestRunRangeEverySplit reads splitLog (and its variants with a final
// newline and with CRLF ends throughout) cut at every point into two
// ranges, and into ranges of every size, with the real parsers, and
// checks that the rows (file, line and every field) and the accounting
// (counts, rejected lines by reason, their samples with file and line,
// invalid clients, time span) put together equal Run's of the whole file.
func TestRunRangeEverySplit(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of reads")
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	opts := splitOptions(mem)
	dir := t.TempDir()
	base := splitLog()
	for _, tc := range []struct {
		name, text string
		// all: every size of range, not only every cut into two.
		all bool
	}{
		{"as is", base, true},
		{"final newline", base + "\n", false},
		{"CRLF", strings.ReplaceAll(strings.ReplaceAll(base, "\r\n", "\n"), "\n", "\r\n"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".log")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			wantRows, want := wholeRun(t, path, opts)
			if want.Files != 1 || want.Rejected < 6 || want.Parsed < 5 || len(want.InvalidClients) == 0 || want.PerFile[0].Format != "combined" {
				t.Fatalf("the whole file: %+v", want)
			}
			size := int64(len(tc.text))
			check := func(ranges []Range) {
				t.Helper()
				gotRows, got := runRanges(t, ranges, opts)
				if d := sameAccounting(got, want); d != "" {
					t.Errorf("cut into %d ranges of up to %d bytes (first [%d, %d)): %s", len(ranges), ranges[0].End, ranges[0].Start, ranges[0].End, d)
				}
				if !slices.Equal(gotRows, wantRows) {
					t.Errorf("cut into %d ranges (first [%d, %d)): rows\n%v\nwant\n%v", len(ranges), ranges[0].Start, ranges[0].End, gotRows, wantRows)
				}
			}
			// Every size, as PlanRanges cuts.
			for n := int64(1); n < size; n++ {
				if !tc.all && n > 40 && n%17 != 0 {
					continue
				}
				ranges, err := PlanRanges(context.Background(), path, n, opts)
				if err != nil {
					t.Fatal(err)
				}
				if want := int((size + n - 1) / n); len(ranges) != want || ranges[0].Format != "combined" {
					t.Fatalf("PlanRanges by %d: %d ranges, format %q", n, len(ranges), ranges[0].Format)
				}
				check(ranges)
			}
			// Every cut into two.
			for c := int64(1); c < size; c++ {
				check([]Range{
					{File: path, Start: 0, End: c, Size: size, Format: "combined"},
					{File: path, Start: c, End: size, Size: size, Format: "combined"},
				})
			}
		})
	}
}

// TestRunRangeMalformedAcrossCuts reads a log whose rejected lines (more
// than the samples kept per reason) each straddle a cut, and checks that
// each is counted once, under its reason, with its sample's line number.
func TestRunRangeMalformedAcrossCuts(t *testing.T) {
	const split = 100
	var b strings.Builder
	var bad []int64 // the line numbers of the bad lines
	for i := 0; b.Len() < 40*split; i++ {
		good := fmt.Sprintf(`198.51.100.%d - - [01/Oct/2026:00:%02d:%02d +0000] "GET /x%d HTTP/1.1" 200 5 "-" "Googlebot/2.1"`+"\n", i%250, i/60%60, i%60, i)
		next := (b.Len()/split + 1) * split // the next cut
		if b.Len()+len(good) > next && i%2 == 0 {
			// A bad line across the cut instead of a good one.
			line := "garbage " + strings.Repeat("#", next-b.Len()) + "\n"
			bad = append(bad, int64(strings.Count(b.String(), "\n"))+1)
			b.WriteString(line)
			continue
		}
		b.WriteString(good)
	}
	path := filepath.Join(t.TempDir(), "bad.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Formats: logfmt.Formats(), Workers: 2}
	ranges, err := PlanRanges(context.Background(), path, split, opts)
	if err != nil || len(ranges) < 40 {
		t.Fatalf("%d ranges: %v", len(ranges), err)
	}
	_, want := wholeRun(t, path, opts)
	_, got := runRanges(t, ranges, opts)
	if d := sameAccounting(got, want); d != "" {
		t.Error(d)
	}
	if len(bad) <= DefaultSamplesPerReason || got.Rejected != int64(len(bad)) {
		t.Fatalf("%d bad lines, %d rejected", len(bad), got.Rejected)
	}
	for i, s := range got.Samples {
		if s.Line != bad[i] || s.File != path || !strings.HasPrefix(s.Text, "garbage ") {
			t.Errorf("sample %d: %+v, want line %d", i, s, bad[i])
		}
	}
}

// TestPlanRanges checks which files are cut, and the format a file's
// ranges are read in: the one Run detects on the file's first block, also
// when the first range is shorter than the lines detection votes on.
func TestPlanRanges(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	combined := `203.0.113.1 - - [01/Oct/2026:00:00:01 +0000] "GET / HTTP/1.1" 200 1 "-" "curl/8"` + "\n"
	jsonl := `{"time":"2026-10-01T00:00:01Z","remote_addr":"203.0.113.1","request":"GET / HTTP/1.1","status":200,"http_user_agent":"curl/8"}` + "\n"
	w3c := "#Version: 1.0\n#Fields: date time c-ip cs-method cs-uri-stem sc-status\n" + strings.Repeat("2026-10-01 00:00:01 203.0.113.1 GET / 200\n", 20)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(combined, 100)))
	zw.Close()
	for _, tc := range []struct {
		name  string
		path  string
		split int64
		opts  Options
		// format of the ranges; "" for none (the file read whole).
		format string
		n      int
	}{
		{"combined", write("c.log", []byte(strings.Repeat(combined, 10))), 100, Options{}, "combined", 9},
		{"blank lines first", write("blank.log", []byte(strings.Repeat("\n", 3000)+strings.Repeat(jsonl, 10))), 1000, Options{}, "jsonl", 5},
		{"format given", write("given.log", []byte(strings.Repeat(combined, 10))), 400, Options{Format: "common"}, "", 3},
		{"no cut", write("c2.log", []byte(strings.Repeat(combined, 10))), 0, Options{}, "-", 0},
		{"short", write("c3.log", []byte(combined)), 1000, Options{}, "-", 0},
		{"gzip", write("c.log.gz", gz.Bytes()), 100, Options{}, "-", 0},
		{"stateful", write("w3c.log", []byte(w3c)), 100, Options{}, "-", 0},
		{"undetectable", write("junk.log", bytes.Repeat([]byte("\x00\x01junk\n"), 100)), 100, Options{}, "-", 0},
		{"directory", dir, 100, Options{}, "-", 0},
		{"missing", filepath.Join(dir, "missing.log"), 100, Options{}, "-", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ranges, err := PlanRanges(ctx, tc.path, tc.split, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(ranges) != tc.n {
				t.Fatalf("%d ranges, want %d", len(ranges), tc.n)
			}
			var end int64
			for _, r := range ranges {
				if r.Format != tc.format || r.File != tc.path || r.Start != end || r.End <= r.Start || r.End-r.Start > tc.split {
					t.Errorf("range %+v", r)
				}
				end = r.End
			}
			if st, err := os.Stat(tc.path); len(ranges) > 0 && (err != nil || end != st.Size()) {
				t.Errorf("ranges end at %d", end)
			}
			if tc.n > 0 {
				// The ranges read the file as Run reads it.
				opts := tc.opts
				opts.Formats = logfmt.Formats()
				wantRows, want := wholeRun(t, tc.path, opts)
				gotRows, got := runRanges(t, ranges, opts)
				if d := sameAccounting(got, want); d != "" || !slices.Equal(gotRows, wantRows) || want.Parsed == 0 {
					t.Errorf("%s; rows\n%v\nwant\n%v", d, gotRows, wantRows)
				}
			}
		})
	}
	if _, err := PlanRanges(ctx, filepath.Join(dir, "c.log"), 10, Options{Format: "nonsense"}); err == nil {
		t.Error("an unknown format planned")
	}
}

// TestRunRangeRefused checks the ranges RunRange does not read.
func TestRunRangeRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sink := func(arrow.RecordBatch) error { return nil }
	for _, tc := range []struct {
		name string
		rg   Range
		opts Options
		want string
	}{
		{"no format", Range{File: path, End: 2, Size: 2}, Options{}, "format"},
		{"stateful", Range{File: path, End: 2, Size: 2, Format: "w3c"}, Options{}, "stateful"},
		{"past the end", Range{File: path, Start: 1, End: 3, Size: 2, Format: "combined"}, Options{}, "bad byte range"},
		{"unknown format", Range{File: path, End: 2, Size: 2, Format: "nonsense"}, Options{}, "unknown log format"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RunRange(context.Background(), tc.rg, tc.opts, sink)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRunRangeShrunk checks a file that became shorter than planned: an
// input error naming the file, as Run's for a file that shrinks.
func TestRunRangeShrunk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	line := `203.0.113.1 - - [01/Oct/2026:00:00:01 +0000] "GET / HTTP/1.1" 200 1 "-" "curl/8"` + "\n"
	if err := os.WriteFile(path, []byte(strings.Repeat(line, 10)), 0o644); err != nil {
		t.Fatal(err)
	}
	ranges, err := PlanRanges(context.Background(), path, int64(3*len(line)), Options{})
	if err != nil || len(ranges) != 4 {
		t.Fatalf("%d ranges: %v", len(ranges), err)
	}
	if err := os.Truncate(path, int64(5*len(line)+10)); err != nil {
		t.Fatal(err)
	}
	for i, rg := range ranges {
		acc, err := RunRange(context.Background(), rg, Options{}, func(arrow.RecordBatch) error { return nil })
		var se *ShrinkError
		var fe *FileError
		if i == 0 {
			if err != nil || acc.Parsed != 3 {
				t.Errorf("range 0: %v, %d parsed", err, acc.Parsed)
			}
			continue
		}
		if !errors.As(err, &se) || !errors.As(err, &fe) || fe.File != path || !strings.Contains(err.Error(), path+": the file shrank") {
			t.Errorf("range %d: %v", i, err)
		}
	}
}

// TestRunRangeTimes checks that a range's From and To are its own rows'.
func TestRunRangeTimes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.log")
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, `203.0.113.1 - - [01/Oct/2026:00:00:%02d +0000] "GET / HTTP/1.1" 200 1 "-" "curl/8"`+"\n", 59-i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	size := int64(b.Len())
	acc, err := RunRange(context.Background(), Range{File: path, Start: size / 2, End: size, Size: size, NewlinesBefore: 4, Format: "combined"}, Options{}, func(arrow.RecordBatch) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 10, 1, 0, 0, 50, 0, time.UTC)
	if acc.Lines != 5 || !acc.From.Equal(from) || !acc.To.Equal(from.Add(4*time.Second)) || acc.Files != 0 {
		t.Errorf("%d lines from %v to %v, %d files", acc.Lines, acc.From, acc.To, acc.Files)
	}
}

package ingest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

var update = flag.Bool("update", false, "rewrite the files in testdata/")

// bzip2Fixture is testdata/tsv200x2.log.bz2: tsvLog(200) compressed by the
// bzip2 command as two concatenated streams of 100 lines each (Go has no
// bzip2 encoder; -update rewrites it with /usr/bin/bzip2).
const bzip2Fixture = "testdata/tsv200x2.log.bz2"

func TestBzip2Fixture(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite " + bzip2Fixture)
	}
	if _, err := exec.LookPath("bzip2"); err != nil {
		t.Fatal("-update needs the bzip2 command")
	}
	var out []byte
	lines := strings.SplitAfter(tsvLog(200), "\n")
	for _, half := range []string{strings.Join(lines[:100], ""), strings.Join(lines[100:], "")} {
		cmd := exec.Command("bzip2", "-c")
		cmd.Stdin = strings.NewReader(half)
		b, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	writeFile(t, ".", bzip2Fixture, out)
}

func TestCompressionByMagic(t *testing.T) {
	dir := t.TempDir()
	text := tsvLog(200)
	half := strings.Index(text, tsvLine(100))
	var multi []byte
	multi = append(multi, gzipBytes(t, text[:half])...)
	multi = append(multi, gzipBytes(t, text[half:])...)
	var kz bytes.Buffer
	kw := kgzip.NewWriter(&kz)
	kw.Write([]byte(text))
	kw.Close()
	enc, _ := zstd.NewWriter(nil)
	zst := enc.EncodeAll([]byte(text), nil)
	// As pzstd writes it: a skippable frame (holding the next frame's
	// size) before each frame, and a seek-table-like one at the end.
	var pz []byte
	for _, part := range []string{text[:half], text[half:]} {
		f := enc.EncodeAll([]byte(part), nil)
		pz = binary.LittleEndian.AppendUint32(append(pz, 0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0), uint32(len(f)))
		pz = append(pz, f...)
	}
	pz = append(pz, 0x5e, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'e', 'n', 'd')
	enc.Close()
	bz, err := os.ReadFile(bzip2Fixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
		comp       string
	}{
		{"plain named .gz", "plain.log.gz", []byte(text), CompressionNone},
		{"gzip named .log", "gzip.log", gzipBytes(t, text), CompressionGzip},
		{"gzip multi-member", "multi.log.gz", multi, CompressionGzip},
		{"gzip by klauspost", "k.gz", kz.Bytes(), CompressionGzip},
		{"zstd named .bz2", "zstd.log.bz2", zst, CompressionZstd},
		{"zstd with skippable frames", "pzstd.log.zst", pz, CompressionZstd},
		{"bzip2 two streams", "bz.log", bz, CompressionBzip2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, tc.file, tc.data)
			rows, _, acc, err := collect(t, []string{p}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariant(t, acc)
			f := acc.PerFile[0]
			if f.Compression != tc.comp || f.Format != "tsv" || !f.Detected {
				t.Errorf("compression %q format %q detected %v, want %q tsv true", f.Compression, f.Format, f.Detected, tc.comp)
			}
			if f.Lines != 200 || f.Parsed != 200 || len(rows) != 200 {
				t.Fatalf("lines %d parsed %d rows %d, want 200", f.Lines, f.Parsed, len(rows))
			}
			if f.BytesRead != int64(len(tc.data)) {
				t.Errorf("bytes read %d, want the file size %d", f.BytesRead, len(tc.data))
			}
			for i, r := range rows {
				if r.Line != int64(i+1) || r.Target != fmt.Sprintf("/p/%d?q=%d", i, i*7) {
					t.Fatalf("row %d: line %d target %q", i, r.Line, r.Target)
				}
			}
		})
	}
}

func TestSniffCompression(t *testing.T) {
	for _, tc := range []struct {
		magic   string
		want    string
		wantErr bool
	}{
		{"\x1f\x8b\x08\x00", CompressionGzip, false},
		{"\x28\xb5\x2f\xfd\x00", CompressionZstd, false},
		{"\x50\x2a\x4d\x18\x04\x00", CompressionZstd, false}, // a skippable frame first: pzstd
		{"\x5f\x2a\x4d\x18\x04\x00", CompressionZstd, false}, // the last skippable magic
		{"\x60\x2a\x4d\x18\x04\x00", CompressionNone, false}, // not one
		{"BZh91AY&SY\x00", CompressionBzip2, false},
		{"BZh9\x17\x72\x45\x38\x50\x90", CompressionBzip2, false},
		{"BZh9 a log line", CompressionNone, false}, // "BZh9" without the block magic is text
		{"\xfd7zXZ\x00", "", true},
		{"PK\x03\x04", "", true},
		{"\x04\x22\x4d\x18", "", true},
		{"127.0.0.1 - -", CompressionNone, false},
		{"", CompressionNone, false},
		{"\x1f", CompressionNone, false},
	} {
		got, err := sniffCompression([]byte(tc.magic))
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("sniffCompression(%q) = %q, %v; want %q, error %v", tc.magic, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestUnsupportedCompression(t *testing.T) {
	if _, err := exec.LookPath("xz"); err != nil {
		t.Skip("no xz command")
	}
	cmd := exec.Command("xz", "-c")
	cmd.Stdin = strings.NewReader(tsvLog(10))
	data, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := writeFile(t, dir, "a.log.xz", data)
	good := writeFile(t, dir, "b.log", []byte(tsvLog(10)))
	_, _, acc, err := collect(t, []string{p, good}, Options{})
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != p || !strings.Contains(err.Error(), "xz") {
		t.Fatalf("error %v, want a FileError about xz naming %s", err, p)
	}
	if acc.PerFile[0].Error == "" || acc.PerFile[1].Parsed != 10 {
		t.Errorf("per file %+v", acc.PerFile)
	}
}

func TestTruncatedGzip(t *testing.T) {
	text := tsvLog(20000)
	full := gzipBytes(t, text)
	cut := full[:len(full)/2]
	dir := t.TempDir()
	p := writeFile(t, dir, "cut.log.gz", cut)
	rows, _, acc, err := collect(t, []string{p}, Options{BlockBytes: 64 << 10})
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a *FileError", err)
	}
	if fe.File != p || fe.Offset != int64(len(cut)) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("FileError %q offset %d, want file %s offset %d, unexpected EOF", fe.Error(), fe.Offset, p, len(cut))
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("%s: at byte offset %d: truncated or corrupt gzip stream", p, len(cut))) {
		t.Errorf("message %q", err)
	}
	checkInvariant(t, acc)
	f := acc.PerFile[0]
	if f.Error == "" || f.Parsed < 1000 || f.Parsed >= 20000 {
		t.Fatalf("file accounting %+v: want readable lines counted and the error", f)
	}
	// Every readable line is there, in order, and the cut last line is
	// rejected as truncated (unless the cut fell right after a newline).
	for i, r := range rows {
		if r.Line != int64(i+1) || r.Target != fmt.Sprintf("/p/%d?q=%d", i, i*7) {
			t.Fatalf("row %d: line %d target %q", i, r.Line, r.Target)
		}
	}
	if f.Rejected > 1 || (f.Rejected == 1 && f.RejectedReasons[string(ErrTruncatedLine)] != 1) {
		t.Errorf("rejected %v", f.RejectedReasons)
	}
}

// TestTruncatedLineCounted: a combined line cut inside its user agent (a
// log rotated mid-write) is counted under "truncated line", the reason a cut
// compressed stream's last line gets, with a sample, and is no request.
func TestTruncatedLineCounted(t *testing.T) {
	var b strings.Builder
	for i := range 6 {
		if i == 3 {
			b.WriteString(`203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] "GET /private/x HTTP/1.1" 200 12 "-" "Mozilla/5.0 (compatible; Cla` + "\n")
			continue
		}
		fmt.Fprintf(&b, "203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] \"GET /p/%d HTTP/1.1\" 200 12 \"-\" \"curl/8.0\"\n", i)
	}
	p := writeFile(t, t.TempDir(), "access.log", []byte(b.String()))
	rows, _, acc, err := collect(t, []string{p}, Options{Formats: logfmt.Formats()})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if f := acc.PerFile[0]; f.Format != "combined" || f.Parsed != 5 || f.Rejected != 1 || f.RejectedReasons[string(ErrTruncatedLine)] != 1 {
		t.Errorf("file accounting %+v", f)
	}
	if len(acc.Samples) != 1 || acc.Samples[0].Reason != "truncated line" || acc.Samples[0].Line != 4 {
		t.Errorf("samples %+v", acc.Samples)
	}
	for _, r := range rows {
		if r.Line == 4 || r.UA != "curl/8.0" {
			t.Errorf("row %+v", r)
		}
	}
}

func TestCorruptZstd(t *testing.T) {
	enc, _ := zstd.NewWriter(nil)
	data := enc.EncodeAll([]byte(tsvLog(5000)), nil)
	enc.Close()
	data = data[:len(data)-100]
	p := writeFile(t, t.TempDir(), "x.zst", data)
	_, _, acc, err := collect(t, []string{p}, Options{})
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != p || fe.Offset <= 0 {
		t.Fatalf("error %v, want a FileError with an offset", err)
	}
	checkInvariant(t, acc)
}

func TestDetectFormat(t *testing.T) {
	tsv := func(i int) []byte { return []byte(tsvLine(i)) }
	broken := []byte(tsvLine(0)[10:]) // the cut first line of a rotated file
	foreign := []byte(`{"t":1}`)
	for _, tc := range []struct {
		name  string
		lines [][]byte
		want  string
	}{
		{"tsv", [][]byte{tsv(0), tsv(1), tsv(2)}, "tsv"},
		{"broken first line", [][]byte{broken, tsv(1), tsv(2)}, "tsv"},
		{"foreign first line", [][]byte{foreign, tsv(1), tsv(2)}, "tsv"},
		{"foreign majority", [][]byte{tsv(1), foreign, foreign}, "kv"},
		{"mixed, not a refinement", [][]byte{foreign, tsv(1), foreign, tsv(2), foreign, tsv(3), tsv(4)}, "tsv"},
		{"stateful with directives", [][]byte{[]byte("#Version: 1.0"), []byte("#Fields: date ip x"), []byte("2026-10-01T00:00:00Z 1.2.3.4 x")}, "hdr"},
		{"only directives", [][]byte{[]byte("#Version: 1.0")}, "hdr"},
		{"nothing parses", [][]byte{[]byte("hello"), []byte("world")}, ""},
		{"empty lines ignored", [][]byte{{}, tsv(3), {}}, "tsv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := DetectFormat(tc.lines, testFormats)
			got := ""
			if v.Winner >= 0 {
				got = testFormats[v.Winner].Name
			}
			if got != tc.want {
				t.Errorf("detected %q (vote %+v), want %q", got, v, tc.want)
			}
		})
	}
	// Ties go to the format listed first.
	same := []logfmt.Format{
		{Name: "first", New: func() logfmt.Parser { return kvParser{} }, Sniffable: true},
		{Name: "second", New: func() logfmt.Parser { return kvParser{} }, Sniffable: true},
	}
	if v := DetectFormat([][]byte{foreign}, same); v.Winner != 0 {
		t.Errorf("tie went to %d, want 0", v.Winner)
	}
	// A refinement listed first (like combined before common) wins if it
	// fails at most one line in ten (and at least one line) more than the best.
	specific := []logfmt.Format{
		{Name: "specific", New: func() logfmt.Parser { return specificParser{} }, Sniffable: true},
		{Name: "general", New: func() logfmt.Parser { return kvParser{} }, Sniffable: true},
	}
	for _, tc := range []struct {
		short, long int
		want        int
	}{{1, 9, 0}, {1, 19, 0}, {2, 18, 0}, {3, 18, 1}, {2, 8, 1}, {1, 3, 0}, {1, 1, 1}, {2, 1, 1}, {5, 5, 1}, {0, 3, 0}} {
		var lines [][]byte
		for range tc.short {
			lines = append(lines, []byte("{}"))
		}
		for range tc.long {
			lines = append(lines, []byte("{long}"))
		}
		if v := DetectFormat(lines, specific); v.Winner != tc.want {
			t.Errorf("%d general-only lines, %d lines of both: winner %d, want %d", tc.short, tc.long, v.Winner, tc.want)
		}
	}
}

// specificParser accepts the kv lines longer than "{}".
type specificParser struct{}

func (specificParser) Parse(line []byte, r *logfmt.Row) error {
	if len(line) <= 2 {
		return logfmt.ErrFieldCount
	}
	return kvParser{}.Parse(line, r)
}

// TestDetectionAfterBlankBlocks: a file that begins with more blank lines
// than fit in a block is detected from its first non-empty lines.
func TestDetectionAfterBlankBlocks(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("\n", 5000) + tsvLog(40)
	p := writeFile(t, dir, "blank-start.log", []byte(text))
	for _, workers := range []int{1, 3} {
		_, _, acc, err := collect(t, []string{p}, Options{BlockBytes: 1024, MaxLineBytes: 256, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		checkInvariant(t, acc)
		f := acc.PerFile[0]
		if f.Format != "tsv" || f.Lines != 40 || f.Parsed != 40 || f.Rejected != 0 {
			t.Errorf("workers=%d: file %+v", workers, f)
		}
	}
}

func TestDetectionInRun(t *testing.T) {
	dir := t.TempDir()
	// A rotated file whose first line is cut, then a JSON line, then tsv.
	text := tsvLine(0)[15:] + "\n" + `{"t":1}` + "\n" + tsvLog(60)
	p := writeFile(t, dir, "rotated.log", []byte(text))
	_, _, acc, err := collect(t, []string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	f := acc.PerFile[0]
	if f.Format != "tsv" || f.Lines != 62 || f.Parsed != 60 || f.Rejected != 2 {
		t.Errorf("file %+v", f)
	}
	if f.RejectedReasons[string(logfmt.ErrFieldCount)] != 1 || f.RejectedReasons[string(logfmt.ErrBadTimestamp)] != 1 {
		t.Errorf("reasons %v: the JSON line is malformed in a tsv file", f.RejectedReasons)
	}
	// --format overrides detection; an unknown name is an error before reading.
	_, _, acc, err = collect(t, []string{p}, Options{Format: "kv"})
	if err != nil || acc.PerFile[0].Format != "kv" || acc.PerFile[0].Detected || acc.Parsed != 1 {
		t.Errorf("--format kv: %v %+v", err, acc.PerFile)
	}
	if _, _, _, err := collect(t, []string{p}, Options{Format: "nope"}); err == nil || !strings.Contains(err.Error(), `unknown log format "nope"`) {
		t.Errorf("--format nope: %v", err)
	}
}

func TestUnknownFormat(t *testing.T) {
	p := writeFile(t, t.TempDir(), "junk.log", []byte("hello\nworld\n\nagain"))
	_, _, acc, err := collect(t, []string{p}, Options{})
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "cannot detect the log format") {
		t.Fatalf("error %v", err)
	}
	checkInvariant(t, acc)
	if acc.Lines != 3 || acc.RejectedReasons[string(ErrUnknownFormat)] != 3 || acc.PerFile[0].Format != "" {
		t.Errorf("accounting %+v", acc)
	}
}

// TestLineNumbersParallel: small blocks and batches, many workers, several
// files: the rows and the accounting equal those of one worker, and every
// row's line number is its physical line.
func TestLineNumbersParallel(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	want := map[string]map[int64]string{} // file -> line -> target
	for fi := range 3 {
		var b strings.Builder
		lines := map[int64]string{}
		ln := int64(0)
		for i := range 3000 + fi*500 {
			ln++
			switch {
			case i%97 == 5:
				b.WriteString("\n") // empty line
			case i%89 == 7:
				b.WriteString("garbage line\n")
			case i%50 == 3:
				b.WriteString(tsvLine(i) + "\r\n")
				lines[ln] = fmt.Sprintf("/p/%d?q=%d", i, i*7)
			default:
				b.WriteString(tsvLine(i) + "\n")
				lines[ln] = fmt.Sprintf("/p/%d?q=%d", i, i*7)
			}
		}
		name := fmt.Sprintf("f%d.log", fi)
		data := []byte(b.String())
		if fi == 1 {
			data = gzipBytes(t, b.String())
		}
		inputs = append(inputs, writeFile(t, dir, name, data))
		want[inputs[fi]] = lines
	}
	serial, _, accS, err := collect(t, inputs, Options{Workers: 1, BlockBytes: 2048, BatchRows: 77})
	if err != nil {
		t.Fatal(err)
	}
	par, nb, accP, err := collect(t, inputs, Options{Workers: 4, BlockBytes: 2048, BatchRows: 77})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, accS)
	checkInvariant(t, accP)
	if nb < 10 {
		t.Errorf("only %d batches", nb)
	}
	if len(serial) != len(par) {
		t.Fatalf("serial %d rows, parallel %d", len(serial), len(par))
	}
	for i := range serial {
		if serial[i] != par[i] {
			t.Fatalf("row %d differs:\n serial   %+v\n parallel %+v", i, serial[i], par[i])
		}
	}
	n := 0
	for _, lines := range want {
		n += len(lines)
	}
	if len(par) != n {
		t.Errorf("%d rows, want %d", len(par), n)
	}
	for _, r := range par {
		if want[r.File][r.Line] != r.Target {
			t.Fatalf("%s:%d has target %q, want %q", r.File, r.Line, r.Target, want[r.File][r.Line])
		}
	}
	if fmt.Sprint(accS) != fmt.Sprint(accP) {
		t.Errorf("accounting differs:\n serial   %+v\n parallel %+v", accS, accP)
	}
}

func TestOverLongLines(t *testing.T) {
	const maxLine = 300
	long := func(n int) string { return strings.Repeat("x", n) }
	var b strings.Builder
	var wantLong []int64
	ln := int64(0)
	add := func(s string, isLong bool) {
		ln++
		b.WriteString(s + "\n")
		if isLong {
			wantLong = append(wantLong, ln)
		}
	}
	add(long(5000), true) // first line, longer than a block buffer
	for i := range 400 {
		switch i % 37 {
		case 3:
			add(long(maxLine+1), true) // just over
		case 4:
			add(long(maxLine), false) // exactly the limit: a garbage line, not too long
		case 5:
			add(long(maxLine)+"\r", false) // the limit with a CRLF end: the '\r' does not count
		case 6:
			add(long(maxLine+1)+"\r", true) // just over, with a CRLF end
		case 11:
			add(long(3000+i), true) // longer than the buffer
		default:
			add(tsvLine(i), false)
		}
	}
	ln++
	b.WriteString(long(10000)) // the last line, without newline
	wantLong = append(wantLong, ln)
	text := b.String()
	for _, tc := range []struct {
		name string
		r    func() io.Reader
	}{
		{"whole reads", func() io.Reader { return strings.NewReader(text) }},
		{"one byte reads", func() io.Reader { return iotest.OneByteReader(strings.NewReader(text)) }},
		{"half reads", func() io.Reader { return iotest.HalfReader(strings.NewReader(text)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, acc, err := collect(t, []string{"-"}, Options{Stdin: tc.r(), MaxLineBytes: maxLine, BlockBytes: 1024, Format: "tsv"})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariant(t, acc)
			if got := acc.RejectedReasons[string(ErrLineTooLong)]; got != int64(len(wantLong)) {
				t.Errorf("%d lines too long, want %d", got, len(wantLong))
			}
			if acc.Lines != ln {
				t.Errorf("%d lines, want %d", acc.Lines, ln)
			}
			var got []int64
			for _, s := range acc.Samples {
				if s.Reason == string(ErrLineTooLong) {
					got = append(got, s.Line)
					if s.Text != long(sampleChars) {
						t.Errorf("sample text %q", s.Text)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(wantLong[:DefaultSamplesPerReason]) {
				t.Errorf("samples at lines %v, want %v", got, wantLong[:DefaultSamplesPerReason])
			}
		})
	}
}

// TestLongLineNotBuffered streams a 256 MiB line through a reader that
// generates it: the splitter never holds it.
func TestLongLineNotBuffered(t *testing.T) {
	r := io.MultiReader(strings.NewReader(tsvLine(1)+"\n"), &repeatReader{b: 'a', n: 256 << 20}, strings.NewReader("\n"+tsvLine(2)+"\n"))
	pool := newBufPool(1024 + 100)
	var long []int64
	var blocks []string
	sp := &splitter{r: r, pool: pool, maxLine: 100,
		emit: func(buf *[]byte, data []byte, first int64, _ bool) error {
			if cap(*buf) != 1124 {
				t.Errorf("buffer of %d bytes", cap(*buf))
			}
			blocks = append(blocks, fmt.Sprintf("%d:%q", first, data))
			pool.put(buf)
			return nil
		},
		longLine: func(line int64, prefix []byte) { long = append(long, line) },
	}
	if err := sp.run(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(long) != "[2]" {
		t.Errorf("long lines %v", long)
	}
	want := []string{fmt.Sprintf("1:%q", tsvLine(1)+"\n"), fmt.Sprintf("3:%q", tsvLine(2)+"\n")}
	if fmt.Sprint(blocks) != fmt.Sprint(want) {
		t.Errorf("blocks %v, want %v", blocks, want)
	}
}

type repeatReader struct {
	b byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= int64(k)
	return k, nil
}

func TestInvalidUTF8Repaired(t *testing.T) {
	line := strings.Replace(tsvLine(1), "/p/1", "/p/\xff\xfe\xc3\xa9", 1)
	line = strings.Replace(line, "curl/8.0", "curl/\xc3(8.0", 1)
	rows, _, acc, err := collect(t, []string{"-"}, Options{Stdin: strings.NewReader(line + "\n"), Format: "tsv"})
	if err != nil {
		t.Fatal(err)
	}
	if acc.Parsed != 1 || len(rows) != 1 {
		t.Fatalf("accounting %+v", acc)
	}
	if rows[0].Target != `/p/\xFF\xFEé?q=7` || rows[0].UA != `curl/\xC3(8.0` {
		t.Errorf("target %q ua %q", rows[0].Target, rows[0].UA)
	}
	for _, s := range []string{rows[0].Target, rows[0].UA} {
		if !utf8.ValidString(s) {
			t.Errorf("%q is not UTF-8", s)
		}
	}
	if got := string(appendRepaired(nil, []byte("a\xed\xa0\x80b\xf4\x90\x80\x80"))); got != `a\xED\xA0\x80b\xF4\x90\x80\x80` {
		t.Errorf("surrogates and out-of-range runes: %q", got)
	}
}

func TestEmptyLinesAndBOM(t *testing.T) {
	text := "\xef\xbb\xbf" + tsvLine(0) + "\r\n\r\n\n" + tsvLine(1) + "\n\n" + tsvLine(2)
	rows, _, acc, err := collect(t, []string{"-"}, Options{Stdin: strings.NewReader(text)})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if acc.Lines != 3 || acc.Parsed != 3 || acc.PerFile[0].Format != "tsv" || acc.PerFile[0].Name != StdinName {
		t.Errorf("accounting %+v", acc)
	}
	var lines []int64
	for _, r := range rows {
		lines = append(lines, r.Line)
	}
	if fmt.Sprint(lines) != "[1 4 6]" {
		t.Errorf("lines %v, want [1 4 6]", lines)
	}
}

func TestStatefulDirectives(t *testing.T) {
	// The field count changes mid-file: parsed right only in order, across
	// many small blocks.
	var b strings.Builder
	want := 0
	for part := range 20 {
		nf := 2 + part%3
		b.WriteString("#Version: 1.0\n")
		fmt.Fprintf(&b, "#Fields: %s\n", strings.Repeat("f ", nf))
		for i := range 50 {
			fields := []string{"2026-10-01T00:00:00Z", fmt.Sprintf("10.0.%d.%d", part, i)}
			for len(fields) < nf {
				fields = append(fields, "x")
			}
			b.WriteString(strings.Join(fields, " ") + "\n")
			want++
		}
	}
	dir := t.TempDir()
	p1 := writeFile(t, dir, "a.log", []byte(b.String()))
	p2 := writeFile(t, dir, "b.log", []byte(b.String()))
	rows, _, acc, err := collect(t, []string{p1, p2}, Options{BlockBytes: 256, BatchRows: 64, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if acc.Directives != 80 || acc.Lines != int64(2*want) || acc.Parsed != int64(2*want) || len(rows) != 2*want {
		t.Errorf("accounting %+v, %d rows; want 80 directives, %d lines", acc, len(rows), 2*want)
	}
	if acc.PerFile[0].Format != "hdr" {
		t.Errorf("format %q", acc.PerFile[0].Format)
	}
}

// A stateful format's state is the file's own: a "#Fields:" line of one file
// must not set the layout of the next file read by the same reader (with
// several readers, which file follows which would be a matter of
// scheduling).
func TestStatefulStateIsPerFile(t *testing.T) {
	dir := t.TempDir()
	p1 := writeFile(t, dir, "a.log", []byte("#Fields: time ip\n2026-10-01T00:00:00Z 10.0.0.1\n"))
	p2 := writeFile(t, dir, "b.log", []byte("2026-10-01T00:00:01Z 10.0.0.2\n"))
	rows, _, acc, err := collect(t, []string{p1, p2}, Options{Format: "hdr", Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if len(rows) != 1 || acc.PerFile[1].Parsed != 0 || acc.PerFile[1].RejectedReasons[string(logfmt.ErrFieldCount)] != 1 {
		t.Errorf("b.log, without a #Fields: line, was parsed with a.log's: %d rows, %+v", len(rows), acc.PerFile[1])
	}
}

func TestSamples(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%s\tbad\t%d\t%s\n", "2026-10-01T00:00:00Z", i, strings.Repeat("é", 300))
		} else {
			b.WriteString(tsvLine(i) + "\n")
		}
	}
	rows, _, acc, err := collect(t, []string{"-"}, Options{Stdin: strings.NewReader(b.String()), BlockBytes: 512, Workers: 4, SamplesPerReason: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if len(rows) != 15 || acc.RejectedReasons[string(logfmt.ErrFieldCount)] != 15 {
		t.Fatalf("accounting %+v", acc)
	}
	if len(acc.Samples) != 3 {
		t.Fatalf("samples %+v", acc.Samples)
	}
	for i, s := range acc.Samples {
		if s.Line != int64(2*i+1) || s.File != StdinName || s.Reason != string(logfmt.ErrFieldCount) {
			t.Errorf("sample %d: %+v", i, s)
		}
		if n := utf8.RuneCountInString(s.Text); n != sampleChars || !utf8.ValidString(s.Text) {
			t.Errorf("sample %d has %d characters", i, n)
		}
	}
	if acc.From.IsZero() || acc.To.Before(acc.From) {
		t.Errorf("from %v to %v", acc.From, acc.To)
	}
}

func TestInputs(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	writeFile(t, logs, "access.log", []byte(tsvLog(3)))
	writeFile(t, logs, "access.log.1.gz", gzipBytes(t, tsvLog(4)))
	writeFile(t, logs, "old/access.log.2", []byte(tsvLog(5)))
	writeFile(t, logs, ".hidden.log", []byte(tsvLog(100)))
	writeFile(t, logs, ".git/x.log", []byte(tsvLog(100)))
	writeFile(t, logs, "README.md", []byte("# logs\n"))
	writeFile(t, logs, "robots.txt.gz", gzipBytes(t, "User-agent: *\n"))
	named := writeFile(t, dir, "named.txt", []byte(tsvLog(6)))
	_, _, acc, err := collect(t, []string{logs, named, filepath.Join(logs, "access.log"), filepath.Join(dir, "nope.log")},
		Options{Stdin: strings.NewReader(tsvLog(1))})
	var fe *FileError
	if !errors.As(err, &fe) || fe.File != filepath.Join(dir, "nope.log") {
		t.Fatalf("error %v, want one naming nope.log", err)
	}
	var names []string
	for _, f := range acc.PerFile {
		names = append(names, strings.TrimPrefix(f.Name, dir+"/"))
	}
	if got := strings.Join(names, " "); got != "logs/access.log logs/access.log.1.gz logs/old/access.log.2 named.txt nope.log" {
		t.Errorf("files %s", got)
	}
	if acc.Parsed != 3+4+5+6 || acc.Files != 5 {
		t.Errorf("accounting %+v", acc)
	}
	var skipped []string
	for _, s := range acc.Skipped {
		skipped = append(skipped, strings.TrimPrefix(s.Name, dir+"/"))
	}
	if got := strings.Join(skipped, " "); got != "logs/.git logs/.hidden.log logs/README.md logs/robots.txt.gz" {
		t.Errorf("skipped %s", got)
	}
	// Globs, and stdin.
	_, _, acc, err = collect(t, []string{filepath.Join(logs, "access.*"), "-", filepath.Join(dir, "*.none")},
		Options{Stdin: strings.NewReader(tsvLog(1))})
	if err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("error %v", err)
	}
	if acc.Parsed != 3+4+1 || acc.PerFile[2].Name != StdinName {
		t.Errorf("accounting %+v", acc.PerFile)
	}
}

// TestDictionaries: every batch carries its own dictionaries, holding only
// the values of its rows.
func TestDictionaries(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	p1 := writeFile(t, dir, "a.log", []byte(tsvLog(1000)))
	p2 := writeFile(t, dir, "b.log", []byte(tsvLog(1000)))
	batches := 0
	_, err := Run(context.Background(), []string{p1, p2}, Options{Formats: testFormats, Allocator: mem, BatchRows: 100, Workers: 1},
		func(rec arrow.RecordBatch) error {
			batches++
			for _, c := range []int{ColHost, ColMethod, ColProtocol, ColUserAgent, ColFile} {
				d, ok := rec.Column(c).(*array.Dictionary)
				if !ok {
					t.Fatalf("column %s is %T", Schema.Field(c).Name, rec.Column(c))
				}
				distinct := map[string]bool{}
				for i := range d.Len() {
					if d.IsValid(i) {
						distinct[strAt(d, i)] = true
					}
				}
				if d.Dictionary().Len() != len(distinct) {
					t.Errorf("column %s: dictionary of %d values for %d distinct", Schema.Field(c).Name, d.Dictionary().Len(), len(distinct))
				}
			}
			if ua := strAt(rec.Column(ColUserAgent), 3); ua != "<nil>" {
				t.Errorf("row 3 user agent %q, want null", ua)
			}
			if h := rec.Column(ColHost); h.NullN() != h.Len() {
				t.Errorf("host has %d nulls of %d", h.NullN(), h.Len())
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if batches != 20 {
		t.Errorf("%d batches, want 20", batches)
	}
}

func TestSinkError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	var inputs []string
	for i := range 4 {
		inputs = append(inputs, writeFile(t, dir, fmt.Sprintf("%d.log", i), []byte(tsvLog(5000))))
	}
	boom := errors.New("boom")
	n := 0
	acc, err := Run(context.Background(), inputs, Options{Formats: testFormats, Allocator: mem, BatchRows: 100, BlockBytes: 4096},
		func(rec arrow.RecordBatch) error {
			n++
			if n == 3 {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) || acc == nil {
		t.Errorf("error %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, inputs, Options{Formats: testFormats, Allocator: mem}, func(arrow.RecordBatch) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}

func TestSampleText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", "abc"},
		{"a\xffb", `a\xFFb`},
		{strings.Repeat("é", 250), strings.Repeat("é", 200)},
		{strings.Repeat("\xff", 250), strings.Repeat(`\xFF`, 200)[:200]},
	} {
		if got := sampleText([]byte(tc.in)); got != tc.want {
			t.Errorf("sampleText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestProgress(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.log.gz", gzipBytes(t, tsvLog(20000)))
	var out bytes.Buffer
	_, _, acc, err := collect(t, []string{p}, Options{Progress: &out})
	if err != nil || acc.Parsed != 20000 {
		t.Fatalf("%v %+v", err, acc)
	}
	// The bar ends at the compressed size of the file.
	st, _ := os.Stat(p)
	if s := out.String(); !strings.Contains(s, "100%") || !strings.Contains(s, "ingest") {
		t.Errorf("progress output %q (file of %d bytes)", s, st.Size())
	}
}

// TestRowFilter: rows a RowFilter drops are counted like the others but are
// in no batch; every worker gets a predicate of its own; what is kept is
// exactly what a run without the filter gives for the same lines.
func TestRowFilter(t *testing.T) {
	dir := t.TempDir()
	const n = 5000
	path := writeFile(t, dir, "a.tsv", []byte(tsvLog(n)))
	all, _, accAll, err := collect(t, []string{path}, Options{BlockBytes: 4096, BatchRows: 300})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	predicates := 0
	seen := 0 // rows the predicates were asked about
	opts := Options{BlockBytes: 4096, BatchRows: 300, Workers: 3, RowFilter: func() func(*logfmt.Row) bool {
		mu.Lock()
		predicates++
		mu.Unlock()
		return func(r *logfmt.Row) bool {
			mu.Lock()
			seen++
			mu.Unlock()
			return bytes.Contains(r.UserAgent, []byte("bot")) || bytes.Contains(r.UserAgent, []byte("Bot"))
		}
	}}
	kept, _, acc, err := collect(t, []string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, acc)
	if acc.Parsed != accAll.Parsed || acc.Lines != n {
		t.Errorf("filtered run parsed %d of %d lines, unfiltered %d", acc.Parsed, acc.Lines, accAll.Parsed)
	}
	if seen != n {
		t.Errorf("the predicates saw %d rows, want %d", seen, n)
	}
	if predicates < 1 || predicates > 3 {
		t.Errorf("%d predicates made for 3 workers", predicates)
	}
	var want []row
	for _, r := range all {
		if strings.Contains(strings.ToLower(r.UA), "bot") {
			want = append(want, r)
		}
	}
	if len(want) != n/2 { // Googlebot and GPTBot: two of the four agents
		t.Fatalf("%d bot rows in the unfiltered run, want %d", len(want), n/2)
	}
	if !slices.Equal(kept, want) {
		t.Errorf("filtered run kept %d rows, want the %d bot rows of the unfiltered run", len(kept), len(want))
	}
}

// TestSkip: the columns of Options.Skip are null in every row, and every
// other column is what a run without it builds.
func TestSkip(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&log, "192.0.2.%d - - [10/Oct/2026:13:55:%02d +0000] \"GET /p/%d HTTP/1.%d\" 200 %d \"https://example.com/%d\" \"Agent/%d\"\n", i%200, i%60, i, i%2, i, i%7, i%13)
	}
	path := writeFile(t, dir, "access.log", []byte(log.String()))
	opts := Options{BlockBytes: 4096, BatchRows: 300, Workers: 3, Formats: logfmt.Formats()}
	all, _, _, err := collect(t, []string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Skip = []int{ColProtocol, ColReferer, ColForwardedFor, ColTarget}
	skipped, _, _, err := collect(t, []string{path}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3000 || len(skipped) != len(all) {
		t.Fatalf("%d rows with Skip, %d without, want 3000", len(skipped), len(all))
	}
	for i, r := range all {
		if r.Proto == "<nil>" || r.Referer == "<nil>" {
			t.Fatalf("row %d without Skip has protocol %q, referer %q", i, r.Proto, r.Referer)
		}
		r.Proto, r.Referer = "<nil>", "<nil>"
		if skipped[i] != r { // the target is built whatever Skip says
			t.Fatalf("row %d with Skip:\n%+v\nwant\n%+v", i, skipped[i], r)
		}
	}
}

// TestOptionsFiles: Files gets the names of the files in the order of the
// inputs (directories expanded in their place), once, before any batch.
func TestOptionsFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c := writeFile(t, dir, "c.log", []byte(tsvLog(10)))
	a := writeFile(t, sub, "a.log", []byte(tsvLog(10)))
	b := writeFile(t, sub, "b.log", []byte(tsvLog(10)))
	var got []string
	calls, batches := 0, 0
	_, err := Run(context.Background(), []string{c, sub}, Options{Formats: testFormats, Files: func(names []string) {
		calls++
		if batches > 0 {
			t.Error("Files called after a batch")
		}
		got = names
	}}, func(rec arrow.RecordBatch) error {
		batches++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{c, a, b}; calls != 1 || !slices.Equal(got, want) {
		t.Errorf("Files called %d times with %v, want once with %v", calls, got, want)
	}
}

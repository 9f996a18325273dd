package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/internal/fakes3"
)

// sampleObjects returns the sample month of testdata/sample cut into one
// CloudFront-named gzip object per day, stored both in a fake S3 bucket
// under cf/ and as files in a directory, and that directory.
func sampleObjects(t *testing.T) (*fakes3.Server, string, []string) {
	t.Helper()
	return fakes3.CloudFrontSample(t, "../testdata/sample/access-2026-10.log.gz", "logs", "cf/", "E2SAMPLE")
}

// TestObjectsLikeFiles: the sample month read from S3 objects gives the
// rows and the accounting of the same bytes read as files, but for the
// names.
func TestObjectsLikeFiles(t *testing.T) {
	srv, dir, keys := sampleObjects(t)
	if len(keys) < 30 {
		t.Fatalf("%d objects, want one per day of October", len(keys))
	}
	opts := Options{Formats: logfmt.Formats(), Workers: 3}
	fileRows, _, fileAcc, err := collect(t, []string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	objRows, _, objAcc, err := collect(t, []string{srv.URL("cf/")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	rename := strings.NewReplacer(dir+string(filepath.Separator), "s3://logs/cf/")
	for i := range fileRows {
		fileRows[i].File = rename.Replace(fileRows[i].File)
	}
	if len(objRows) != 50000 || !slices.Equal(fileRows, objRows) {
		t.Fatalf("%d rows from objects, %d from files: they differ", len(objRows), len(fileRows))
	}
	fj, _ := json.Marshal(fileAcc)
	oj, _ := json.Marshal(objAcc)
	if got, want := string(oj), rename.Replace(string(fj)); got != want {
		t.Errorf("accounting of the objects:\n%s\nwant (the files'):\n%s", got, want)
	}
	if objAcc.Files != len(keys) || objAcc.PerFile[0].Compression != CompressionGzip || objAcc.PerFile[0].Format != "combined" {
		t.Errorf("accounting %+v", objAcc.PerFile[0])
	}
	checkInvariant(t, objAcc)
}

// TestObjectsPeriod: with From/To, the objects of a prefix whose key dates
// them more than a day outside the period are not read, and are listed in
// the accounting; a glob selects as path.Match does.
func TestObjectsPeriod(t *testing.T) {
	srv, _, _ := sampleObjects(t)
	opts := Options{Formats: logfmt.Formats(),
		From: time.Date(2026, 10, 10, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 12, 23, 59, 59, 0, time.UTC)}
	rows, _, acc, err := collect(t, []string{srv.URL("cf/")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var read, skipped []string
	for _, f := range acc.PerFile {
		read = append(read, strings.TrimPrefix(f.Name, "s3://logs/cf/E2SAMPLE.2026-10-")[:2])
	}
	for _, s := range acc.Skipped {
		skipped = append(skipped, strings.TrimPrefix(s.Name, "s3://logs/cf/E2SAMPLE.2026-10-")[:2])
		if !strings.HasSuffix(s.Reason, "more than a day outside the audited period (--from/--to)") {
			t.Errorf("%s: reason %q", s.Name, s.Reason)
		}
	}
	// Days 9 and 13 are read for their day's margin.
	if want := []string{"09", "10", "11", "12", "13"}; !slices.Equal(read, want) {
		t.Errorf("read days %q, want %q", read, want)
	}
	if len(skipped) != 31-5 || skipped[0] != "01" || skipped[len(skipped)-1] != "31" {
		t.Errorf("skipped days %q", skipped)
	}
	for _, r := range rows {
		d := time.UnixMicro(r.TS).UTC().Day()
		if d < 9 || d > 13 {
			t.Fatalf("a row of %s: %+v", time.UnixMicro(r.TS).UTC(), r)
		}
	}
	_, _, acc, err = collect(t, []string{srv.URL("cf/E2SAMPLE.2026-10-2[0-9]-00.*.gz")}, Options{Formats: logfmt.Formats()})
	if err != nil || acc.Files != 10 {
		t.Errorf("glob of the 20s: %d files, %v", acc.Files, err)
	}
}

// TestObjectTruncated: a gzip object cut short is reported as the same
// file cut short is: its readable lines count, the cut line is rejected,
// the error names the object and the byte offset.
func TestObjectTruncated(t *testing.T) {
	data := gzipBytes(t, tsvLog(20000))
	cut := data[:len(data)*2/3]
	srv := fakes3.Start(t, "logs")
	srv.Put(t, "cut/access.log.gz", cut)
	p := writeFile(t, t.TempDir(), "access.log.gz", cut)

	_, _, fileAcc, fileErr := collect(t, []string{p}, Options{})
	_, _, objAcc, objErr := collect(t, []string{srv.URL("cut/access.log.gz")}, Options{})
	const name = "s3://logs/cut/access.log.gz"
	checkCut(t, fileErr, fileAcc, p)
	checkCut(t, objErr, objAcc, name)
	if got, want := objErr.Error(), strings.ReplaceAll(fileErr.Error(), p, name); got != want {
		t.Errorf("object error %q, want %q", got, want)
	}
	var fe, oe *FileError
	errors.As(fileErr, &fe)
	errors.As(objErr, &oe)
	if oe.Offset != fe.Offset || oe.Offset <= 0 {
		t.Errorf("offset %d, file's %d", oe.Offset, fe.Offset)
	}
	fa, oa := fileAcc.PerFile[0], objAcc.PerFile[0]
	fa.Name, fa.Error = name, strings.ReplaceAll(fa.Error, p, name)
	fj, _ := json.Marshal(fa)
	oj, _ := json.Marshal(oa)
	if string(fj) != string(oj) || oa.Lines == 0 || oa.RejectedReasons[string(ErrTruncatedLine)] != 1 {
		t.Errorf("object accounting %s\nwant %s", oj, fj)
	}
}

// TestObjectErrors: an object that cannot be listed or read is an input
// error naming its URL (never its query), and the other inputs are read.
func TestObjectErrors(t *testing.T) {
	srv := fakes3.Start(t, "logs")
	srv.Put(t, "a/x.log", []byte(tsvLog(10)))
	p := writeFile(t, t.TempDir(), "ok.log", []byte(tsvLog(5)))
	inputs := []string{srv.URL("a/missing.log"), srv.URL("empty/"), p, srv.URL("a/") + "&role=SECRET-ROLE-x1"}
	_, _, acc, err := collect(t, inputs, Options{})
	if acc.Lines != 5 || acc.Files != 4 {
		t.Errorf("read %d lines of %d files", acc.Lines, acc.Files)
	}
	var names []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if e == nil {
			continue
		}
		var fe *FileError
		if !errors.As(e, &fe) {
			t.Fatalf("%v is no FileError", e)
		}
		names = append(names, fe.File)
	}
	if want := []string{"s3://logs/a/missing.log", "s3://logs/empty/", "s3://logs/a/"}; !slices.Equal(names, want) {
		t.Errorf("errors of %q, want %q", names, want)
	}
	msg := err.Error()
	for _, s := range []string{"SECRET-ROLE-x1", fakes3.SecretAccessKey, "endpoint=", "127.0.0.1"} {
		if strings.Contains(msg, s) {
			t.Errorf("the error holds %q:\n%s", s, msg)
		}
	}
	for _, want := range []string{"s3://logs/a/missing.log: no such object", "s3://logs/empty/: no object under this prefix", "s3://logs/a/: cannot open the bucket"} {
		if !strings.Contains(msg, want) {
			t.Errorf("no %q in:\n%s", want, msg)
		}
	}
}

// TestObjectCanceled: a run cancelled while objects stream stops, as a
// run over files does.
func TestObjectCanceled(t *testing.T) {
	srv, _, _ := sampleObjects(t)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Run(ctx, []string{srv.URL("cf/")}, Options{Formats: logfmt.Formats(), BatchRows: 100}, func(arrow.RecordBatch) error {
		n++
		if n == 3 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// BenchmarkObjectVsFile reads the same plain combined log (the sample
// month repeated, CRAWLAUDIT_BENCH_OBJECT_MB megabytes, default 256) from
// a file and from an object of a fake S3 server on 127.0.0.1 that streams
// it from the same file: the cost of object storage is the difference.
// scripts/objstore-bench.sh runs the whole audit on 1 GB both ways, with
// its peak memory.
func BenchmarkObjectVsFile(b *testing.B) {
	mb := 256
	if s := os.Getenv("CRAWLAUDIT_BENCH_OBJECT_MB"); s != "" {
		if _, err := fmt.Sscan(s, &mb); err != nil || mb <= 0 {
			b.Fatalf("CRAWLAUDIT_BENCH_OBJECT_MB=%q", s)
		}
	}
	gz, err := os.ReadFile("../testdata/sample/access-2026-10.log.gz")
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		b.Fatal(err)
	}
	month, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	f, err := os.Create(filepath.Join(dir, "access.log"))
	if err != nil {
		b.Fatal(err)
	}
	size := int64(0)
	for size < int64(mb)<<20 {
		n, err := f.Write(month)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(n)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	srv := fakes3.StartDir(b, "logs", dir)
	for _, bc := range []struct{ name, input string }{
		{"file", filepath.Join(dir, "access.log")},
		{"s3", srv.URL("access.log")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				acc, err := Run(context.Background(), []string{bc.input}, Options{Formats: logfmt.Formats()}, func(arrow.RecordBatch) error { return nil })
				if err != nil || acc.Parsed == 0 || acc.PerFile[0].BytesRead != size {
					b.Fatalf("%v: %+v", err, acc.PerFile)
				}
			}
		})
	}
}

// TestObjectIntegrity: a gzip object whose CRC-32 does not match its data
// (RFC 1952 §2.3.1: CRC32 is the trailer's first four bytes) fails its
// integrity check as the same file does, the IntegrityError naming the
// object's URL, the member and the offsets.
func TestObjectIntegrity(t *testing.T) {
	data := gzipBytes(t, tsvLog(3000))
	data[len(data)-8] ^= 0xff // the first byte of the CRC32 trailer
	srv := fakes3.Start(t, "logs")
	srv.Put(t, "bad/access.log.gz", data)
	p := writeFile(t, t.TempDir(), "access.log.gz", data)
	_, _, _, fileErr := collect(t, []string{p}, Options{})
	_, _, objAcc, objErr := collect(t, []string{srv.URL("bad/access.log.gz")}, Options{})
	const name = "s3://logs/bad/access.log.gz"
	ies := IntegrityErrors(objErr)
	if len(ies) != 1 || ies[0].File != name || ies[0].Member != 1 || ies[0].At != int64(len(data)) {
		t.Fatalf("integrity errors %+v of %v", ies, objErr)
	}
	if got, want := objErr.Error(), strings.ReplaceAll(fileErr.Error(), p, name); got != want {
		t.Errorf("object error %q, want %q", got, want)
	}
	if objAcc.PerFile[0].Integrity == "" {
		t.Error("the accounting does not say the object failed its check")
	}
}

// TestHTTPSDropped: a connection that drops in the middle of an https://
// object (the server promised more bytes than it sent) is reported as the
// file cut at the same byte: its readable lines count, the cut line is
// rejected, the error names the URL without its query and the offset.
func TestHTTPSDropped(t *testing.T) {
	data := gzipBytes(t, tsvLog(20000))
	sent := len(data) / 2
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:sent])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer hs.Close()
	p := writeFile(t, t.TempDir(), "access.log.gz", data[:sent])
	_, _, fileAcc, fileErr := collect(t, []string{p}, Options{})
	url := hs.URL + "/logs/access.log.gz?sig=s3cr3t-signature"
	name := hs.URL + "/logs/access.log.gz"
	_, _, objAcc, objErr := collect(t, []string{url}, Options{})
	checkCut(t, objErr, objAcc, name)
	if got, want := objErr.Error(), strings.ReplaceAll(fileErr.Error(), p, name); got != want {
		t.Errorf("object error %q, want %q", got, want)
	}
	if objAcc.Lines != fileAcc.Lines || objAcc.PerFile[0].BytesRead != int64(sent) {
		t.Errorf("%d lines (file: %d), %d bytes read of %d sent", objAcc.Lines, fileAcc.Lines, objAcc.PerFile[0].BytesRead, sent)
	}
	if strings.Contains(objErr.Error(), "s3cr3t") {
		t.Errorf("the error holds the signature: %v", objErr)
	}
}

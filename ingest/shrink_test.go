package ingest

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestShrinkWhileRead: a plain log truncated in place while it is read
// (logrotate copytruncate) is reported, its lines read before counted. A
// goroutine truncates the file when the reader has read its first bytes;
// the read hook waits for it, so nothing races.
func TestShrinkWhileRead(t *testing.T) {
	text := tsvLog(5000)
	newLines := tsvLog(2)
	for _, tc := range []struct {
		name   string
		after  func(p string) error // what happens to the file after its first read
		shrank bool
		to     int64
	}{
		{"truncated to 1000 bytes", func(p string) error { return os.Truncate(p, 1000) }, true, 1000},
		{"truncated, then two lines written", func(p string) error { return os.WriteFile(p, []byte(newLines), 0o644) }, true, int64(len(newLines))},
		{"grows while read", func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString(tsvLog(10))
			return err
		}, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "access.log", []byte(text))
			act, done := make(chan struct{}), make(chan error)
			go func() {
				for range act {
					done <- tc.after(p)
				}
			}()
			defer close(act)
			var firstRead int64
			testHookRead = func(f *os.File, read int64) {
				if f.Name() == p && firstRead == 0 {
					firstRead = read
					act <- struct{}{}
					if err := <-done; err != nil {
						t.Error(err)
					}
				}
			}
			defer func() { testHookRead = nil }()

			rows, _, acc, err := collect(t, []string{p}, Options{BlockBytes: 16 << 10, Workers: 2})
			checkInvariant(t, acc)
			if firstRead <= 0 || firstRead >= int64(len(text)) {
				t.Fatalf("first read of %d bytes: want part of the file", firstRead)
			}
			f := acc.PerFile[0]
			if !tc.shrank {
				if err != nil || f.Parsed != 5010 {
					t.Fatalf("error %v, %d lines parsed: want no error and every line", err, f.Parsed)
				}
				return
			}
			var fe *FileError
			var se *ShrinkError
			if !errors.As(err, &fe) || !errors.As(err, &se) || fe.File != p || se.From != firstRead || se.To != tc.to {
				t.Fatalf("error %v: want a FileError of %s wrapping a ShrinkError from %d to %d", err, p, firstRead, tc.to)
			}
			want := p + ": the file shrank from " + itoa(firstRead) + " to " + itoa(tc.to) +
				" bytes while being read (truncated by logrotate copytruncate?): lines after byte " + itoa(tc.to) + " may be missing or stale"
			if err.Error() != want || f.Error != want {
				t.Errorf("message %q (accounting %q), want %q", err, f.Error, want)
			}
			// The whole lines read before the truncation count; the cut
			// last one is a truncated line, no request.
			whole := int64(strings.Count(text[:firstRead], "\n"))
			if f.Parsed != whole || int64(len(rows)) != whole {
				t.Errorf("parsed %d, rows %d: want the %d whole lines read", f.Parsed, len(rows), whole)
			}
			if cut := !bytes.HasSuffix([]byte(text[:firstRead]), []byte("\n")); cut != (f.RejectedReasons[string(ErrTruncatedLine)] == 1) {
				t.Errorf("rejected %v", f.RejectedReasons)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

package history

import (
	"strings"
	"testing"
	"time"
)

func FuzzParseGitLog(f *testing.F) {
	z := "\x00"
	f.Add("commit aaaa 1790000000" + z + "\n:100644 100644 1111 2222 M" + z + "robots.txt" + z)
	f.Add("commit bbbb 1" + z + "\n:100644 100644 3333 1111 R087" + z + "old" + z + "new" + z)
	f.Add("commit cccc -5" + z + "\n:100644 000000 3333 0000 D" + z + "x" + z)
	f.Fuzz(func(t *testing.T, out string) {
		changes, err := parseGitLog([]byte(out))
		if err != nil {
			return
		}
		for _, c := range changes {
			if c.path == "" || c.commit == "" {
				t.Fatalf("accepted change without path or commit: %+v", c)
			}
		}
	})
}

func FuzzNormalizeHost(f *testing.F) {
	for _, s := range []string{"Example.COM:8080", "[::1]:80", "2001:db8::1", "a.", " x ", "[", "]:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeHost(s)
		if len(s) <= maxHostLen && NormalizeHost(n) != n {
			t.Fatalf("NormalizeHost(%q) = %q, not idempotent: %q", s, n, NormalizeHost(n))
		}
		if strings.ContainsAny(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Fatalf("NormalizeHost(%q) = %q has uppercase", s, n)
		}
	})
}

func FuzzParseInstant(f *testing.F) {
	for _, s := range []string{"2026-10-01T00:00:00Z", "2026-10-01", "20261001T000000Z", "2026-10-01T00:00:00.5+02:00", "9999-99-99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseInstant(s)
		if err != nil {
			return
		}
		if tm.Location() != time.UTC || tm.Nanosecond()%1000 != 0 {
			t.Fatalf("ParseInstant(%q) = %v: not UTC microseconds", s, tm)
		}
	})
}

package rdns

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"
)

// FuzzDecodeLine: decoding a cache line never panics; a line that decodes
// is a normalized answer that Save can write and LoadCache read back
// unchanged, and its encoding is a fixed point; a line that does not is
// ErrSyntax.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"addr":"66.249.66.1","ptr":["crawl-66-249-66-1.googlebot.com"],"forward":{"crawl-66-249-66-1.googlebot.com":["66.249.66.1"]},"time":"2026-11-01T12:00:00Z"}`,
		`{"addr":"2001:4860:4801:2008::1","ptr":["Crawl.GoogleBot.COM."],"forward":{"crawl.googlebot.com.":["::ffff:66.249.66.1",""]},"time":"2026-11-01T13:00:00.5+01:00"}`,
		`{"addr":"10.0.0.1","error":"nxdomain","time":"2026-11-01T12:00:00Z"}`,
		`{"addr":"::ffff:10.0.0.1","ptr":[],"forward":{},"error":"timeout"}`,
		`{"addr":"fe80::1%eth0"}`,
		`{"addr":"10.0.0.1","forward":{"a":null,"A.":["10.0.0.2"]},"time":"0000-01-01T00:00:00+01:00"}`,
		`{"addr":"10.0.0.1","ptr":["a..","a."]}`,
		`not json`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		a, err := decodeLine(line)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v is not ErrSyntax", err)
			}
			return
		}
		if !a.Addr.IsValid() || a.Addr.Is4In6() || a.Addr.Zone() != "" {
			t.Fatalf("decoded address %v", a.Addr)
		}
		if a.Time.Location() != time.UTC {
			t.Fatalf("time %v not in UTC", a.Time)
		}
		if !slices.IsSorted(a.Names) || len(slices.Compact(slices.Clone(a.Names))) != len(a.Names) {
			t.Fatalf("names %q not sorted and distinct", a.Names)
		}
		for _, n := range a.Names {
			if n != canonicalName(n) {
				t.Fatalf("name %q not canonical", n)
			}
		}
		enc, err := encodeLine(nil, a)
		if err != nil {
			t.Fatalf("decoded %+v cannot be encoded: %v", a, err)
		}
		b, err := decodeLine(bytes.TrimSuffix(enc, []byte("\n")))
		if err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		if !a.equal(b) {
			t.Fatalf("round trip changed %+v into %+v", a, b)
		}
		enc2, _ := encodeLine(nil, b)
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding not a fixed point:\n%s%s", enc, enc2)
		}
		a.Check(googleDomains) // never panics
	})
}

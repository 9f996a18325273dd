package objstore

import (
	"strings"
	"testing"
	"time"
)

// FuzzKeyTime: any key, no panic; a date found is a real one the key
// spells, in UTC, at the start of its hour or day.
func FuzzKeyTime(f *testing.F) {
	for _, k := range []string{
		"example-prefix/EMLARXS9EXAMPLE.2019-11-14-20.RT4KCN4SGK9.gz",
		"AWSLogs/123456789012/elasticloadbalancing/us-east-2/2022/05/01/x.log.gz",
		"logs/20180523/20180523T010000Z_20180523T010100Z_7b1f4e2a.log.gz",
		"", "/", "//", "a/2026/02/29/x", "E.9999-99-99-99.X.gz",
	} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		start, span, ok := KeyTime(key)
		if !ok {
			return
		}
		if start.Location() != time.UTC || start.Year() < 1990 || start.Year() > 2200 {
			t.Fatalf("%q: start %v", key, start)
		}
		var spelled string
		switch span {
		case time.Hour:
			spelled = start.Format("2006-01-02-15")
		case 24 * time.Hour:
			if start.Hour() != 0 || start.Minute() != 0 {
				t.Fatalf("%q: a day starting at %v", key, start)
			}
			if !strings.Contains(key, start.Format("2006/01/02/")) {
				spelled = start.Format("20060102") + "/"
			}
		default:
			t.Fatalf("%q: span %v", key, span)
		}
		if spelled != "" && !strings.Contains(key, spelled) {
			t.Fatalf("%q: dated %v, which it does not spell", key, start)
		}
	})
}

// FuzzName: whatever is given, the name shown keeps no query and no
// fragment, where credentials travel.
func FuzzName(f *testing.F) {
	for _, s := range []string{
		"s3://logs/cf/?region=eu-west-1&endpoint=http://127.0.0.1:9000",
		"https://u:p@h/x.gz?sig=1#f", "https://bad host/x?sig=1", "gs://b/%3Fx?y=1", "s3://", "?",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n := Name(raw)
		if strings.ContainsAny(n, "?#") {
			t.Fatalf("Name(%q) = %q keeps a query or fragment", raw, n)
		}
	})
}

//go:build duckdb_arrow

package audit

import (
	"testing"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// FuzzReferralCount: the filter's byte lookups answer as package bots'
// string ones do (bots.RefererHost, bots.UTMSource, bots.LookupUTMSource),
// and counting never panics, whatever a log holds.
func FuzzReferralCount(f *testing.F) {
	for _, s := range [][3]string{
		{"www.example.com", "/a?utm_source=chatgpt.com", "https://chatgpt.com/"},
		{"www.example.com:443", "/a?x&utm_source=ChatGPT.com#f", "https://u:p@www.Perplexity.AI:8443/search?q=1"},
		{"", "/?utm_source=", "android-app://com.google.android.googlequicksearchbox/"},
		{"[2001:db8::1]:80", "?&&utm_source=chatgpt.com&utm_source=x", "https://[2001:db8::1]:80/p?utm_source=chatgpt.com"},
		{"h", "\xff?utm_source=\x00", "://x"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, host, target, referer string) {
		if got, want := string(refererHost([]byte(referer))), bots.RefererHost(referer); got != want {
			t.Errorf("refererHost(%q) = %q, bots.RefererHost %q", referer, got, want)
		}
		want := ""
		if p, ok := bots.LookupUTMSource(bots.UTMSource(target)); ok {
			want = p.Operator
		}
		got := ""
		if op := utmOp([]byte(target)); op >= 0 {
			got = referralOps[op]
		}
		if got != want {
			t.Errorf("utmOp(%q) = %q, bots %q", target, got, want)
		}
		var c referralCounter
		r := logfmt.Row{Host: []byte(host), Target: []byte(target), Referer: []byte(referer)}
		c.count(&r)
		c.count(&r) // the second time from the caches
		var n int64
		for _, k := range c.counts[host] {
			n += k
		}
		if n != 0 && n != 2 {
			t.Errorf("counted %d times for two requests", n)
		}
	})
}

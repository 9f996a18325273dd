//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/report"
)

// TestReferralCount: which human request is a referral, and whose. Each
// row names where its rule comes from.
func TestReferralCount(t *testing.T) {
	for _, tc := range []struct {
		name, source          string
		host, target, referer string
		want                  string // operator; "" none
	}{
		{"ChatGPT's host", "Matomo AIAssistants.yml: chatgpt.com", "www.example.com", "/a", "https://chatgpt.com/", "OpenAI"},
		{"ChatGPT's utm_source without a Referer", "help.openai.com Publishers and Developers FAQ: utm_source=chatgpt.com", "www.example.com", "/a?utm_source=chatgpt.com", "", "OpenAI"},
		{"utm_source after other parameters, case ignored", "RFC 3986 §3.4 query; the FAQ's value", "www.example.com", "/a?x=1&utm_source=ChatGPT.com", "", "OpenAI"},
		{"advertisers' utm_source=chatgpt is not ChatGPT's", "docs/referrers.md", "www.example.com", "/a?utm_source=chatgpt", "", ""},
		{"Perplexity with www.", "Matomo AIAssistants.yml: perplexity.ai", "www.example.com", "/a", "https://www.perplexity.ai/search?q=x", "Perplexity"},
		{"Google search under a country domain", "Matomo SearchEngines.yml: google.{}", "www.example.com", "/a", "https://www.google.co.uk/", "Google"},
		{"Google's search app", "Matomo SearchEngines.yml: android-app referrer", "www.example.com", "/a", "android-app://com.google.android.googlequicksearchbox/", "Google"},
		{"user info and port are not the host", "RFC 3986 §3.2 authority", "www.example.com", "/a", "https://user@claude.ai:443/chat", "Anthropic"},
		{"the site itself", "RFC 9110 §10.1.3: the page the link was on", "www.example.com", "/b", "https://www.example.com/a", ""},
		{"another page of the site after a ChatGPT landing", "RFC 9110 §10.1.3", "www.example.com", "/style.css", "https://www.example.com/a?utm_source=chatgpt.com", ""},
		{"a ChatGPT-tagged page of another site", "RFC 9110 §10.1.3", "www.example.com", "/a", "https://blog.example.org/p?utm_source=chatgpt.com", "OpenAI"},
		{"no host logged: a Referer's utm_source is not read", "docs/referrers.md", "", "/a", "https://blog.example.org/p?utm_source=chatgpt.com", ""},
		{"no Referer (-)", "RFC 9110 §10.1.3: may be omitted", "www.example.com", "/a", "", ""},
		{"not a URL", "RFC 9110 §10.1.3: absolute-URI / partial-URI", "www.example.com", "/a", "chatgpt.com", ""},
		{"an unknown site", "bots/referrers.json", "www.example.com", "/a", "https://news.ycombinator.com/", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c referralCounter
			r := logfmt.Row{Target: []byte(tc.target)}
			if tc.host != "" {
				r.Host = []byte(tc.host)
			}
			if tc.referer != "" {
				r.Referer = []byte(tc.referer)
			}
			c.count(&r)
			got := ""
			for op, n := range c.counts[tc.host] {
				if n == 1 {
					got = referralOps[op]
				} else if n != 0 {
					t.Fatalf("%s counted %d times", referralOps[op], n)
				}
			}
			if got != tc.want {
				t.Errorf("%s (%s): referral of %q, want %q", tc.name, tc.source, got, tc.want)
			}
		})
	}
}

// The filter counts referrals without allocating once it has seen the
// host and the Referer's host.
func TestReferralCountAllocs(t *testing.T) {
	var c referralCounter
	rows := []logfmt.Row{
		{Host: []byte("www.example.com"), Target: []byte("/a?utm_source=chatgpt.com"), Referer: []byte("https://chatgpt.com/")},
		{Host: []byte("www.example.com"), Target: []byte("/b"), Referer: []byte("https://www.example.com/a")},
		{Host: []byte("www.example.com"), Target: []byte("/c"), Referer: []byte("https://www.google.de/")},
		{Host: []byte("www.example.com"), Target: []byte("/d?q=1&utm_source=chatgpt.com")},
	}
	for i := range rows {
		c.count(&rows[i])
	}
	if n := testing.AllocsPerRun(100, func() {
		for i := range rows {
			c.count(&rows[i])
		}
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

// TestReferralsAgainstGenerator audits a realistic month on two hosts in
// which 5 % of the visits land from an AI assistant, and checks
// summary.json's referrals against the generator's own requests: the
// referrals counted from what each visitor sent (the string lookups of
// package bots, not the filter's), the crawls from the verified bot rows.
func TestReferralsAgainstGenerator(t *testing.T) {
	cfg := loggen.RealisticConfig(60_000)
	cfg.Hosts = []string{"www.example.com", "shop.example.com"}
	cfg.AIReferrals = 0.05
	dir := t.TempDir()
	robotsDir, log := writeMonth(t, dir, cfg, "jsonl", false)

	want := map[referralKey]int64{}
	err := loggen.Generate(cfg, func(r *loggen.Request) error {
		if r.Actor != "browser" {
			return nil
		}
		ref := string(r.Referer)
		refHost := bots.RefererHost(ref)
		if p, ok := bots.LookupReferer(ref); ok {
			want[referralKey{r.Host, p.Operator}]++
		} else if p, ok := bots.LookupUTMSource(bots.UTMSource(string(r.Target))); ok {
			want[referralKey{r.Host, p.Operator}]++
		} else if refHost != "" && !strings.EqualFold(refHost, r.Host) {
			if p, ok := bots.LookupUTMSource(bots.UTMSource(ref)); ok {
				want[referralKey{r.Host, p.Operator}]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	s := &res.Summary
	crawls := map[referralKey]int64{}
	for _, b := range s.Bots {
		if b.Identity == report.IdentityVerified {
			crawls[referralKey{b.Host, b.Operator}] += b.Requests
		}
	}
	if s.Input.NoReferer {
		t.Error("no_referer on a log with Referers")
	}
	got := map[referralKey]int64{}
	for _, r := range s.Referrals {
		k := referralKey{r.Host, r.Operator}
		got[k] = r.Referrals
		if r.Crawls != crawls[k] {
			t.Errorf("%s on %s: %d crawls, the verified bot rows have %d", r.Operator, r.Host, r.Crawls, crawls[k])
		}
		switch {
		case r.Referrals == 0 && r.Ratio != nil:
			t.Errorf("%s on %s: ratio %v without a referral", r.Operator, r.Host, *r.Ratio)
		case r.Referrals > 0 && (r.Ratio == nil || *r.Ratio < float64(r.Crawls)/float64(r.Referrals)-0.005 || *r.Ratio > float64(r.Crawls)/float64(r.Referrals)+0.005):
			t.Errorf("%s on %s: ratio %v for %d crawls and %d referrals", r.Operator, r.Host, r.Ratio, r.Crawls, r.Referrals)
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s on %s: %d referrals, the generator sent %d", k.operator, k.host, got[k], n)
		}
	}
	for k, n := range got {
		if n > 0 && want[k] == 0 {
			t.Errorf("%s on %s: %d referrals the generator did not send", k.operator, k.host, n)
		}
	}
	for _, op := range []string{"OpenAI", "Perplexity", "Google", "Anthropic", "Microsoft"} {
		for _, h := range cfg.Hosts {
			if want[referralKey{h, op}] == 0 {
				t.Errorf("the month has no referral of %s on %s: the test tests less than it says", op, h)
			}
		}
	}
}

// A log that does not record the Referer (Common Log Format) says so, and
// has no referrals rather than none sent.
func TestReferralsNoRefererField(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "access.log")
	lines := strings.Join([]string{
		`66.249.66.1 - - [01/Oct/2026:10:00:00 +0000] "GET /a?utm_source=chatgpt.com HTTP/1.1" 200 512`,
		`203.0.113.9 - - [01/Oct/2026:10:00:01 +0000] "GET /b HTTP/1.1" 200 512`,
	}, "\n") + "\n"
	if err := os.WriteFile(log, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robots}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if !res.Summary.Input.NoReferer || res.Summary.Referrals != nil {
		t.Errorf("no_referer %v, referrals %+v: want true and none", res.Summary.Input.NoReferer, res.Summary.Referrals)
	}
}

// Referrals leaves out the operators of no product, spoofed rows and
// other identities, and orders by host, crawls, referrals.
func TestReferralsRows(t *testing.T) {
	rows := []report.BotRow{
		{Bot: "GPTBot", Operator: "OpenAI", Host: "a", Identity: report.IdentityVerified, Requests: 90},
		{Bot: "ChatGPT-User", Operator: "OpenAI", Host: "a", Identity: report.IdentityVerified, Requests: 10},
		{Bot: "GPTBot", Host: "a", Identity: report.IdentitySpoofed, Requests: 500},
		{Bot: "GPTBot", Operator: "OpenAI", Host: "a", Identity: report.IdentityUnverified, Requests: 7},
		{Bot: "Bytespider", Operator: "ByteDance", Host: "a", Identity: report.IdentityVerified, Requests: 1000},
		{Bot: "Googlebot", Operator: "Google", Host: "a", Identity: report.IdentityVerified, Requests: 40},
	}
	got := Referrals(rows, []ReferralCount{{"OpenAI", "a", 4}, {"DuckDuckGo", "a", 3}})
	r25 := 25.0
	want := []report.Referral{
		{Operator: "OpenAI", Host: "a", Crawls: 100, Referrals: 4, Ratio: &r25},
		{Operator: "Google", Host: "a", Crawls: 40},
		{Operator: "DuckDuckGo", Host: "a", Referrals: 3, Ratio: new(float64)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Referrals:\n%+v\nwant\n%+v", got, want)
	}
}

package verify

import (
	"encoding/json"
	"math"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// src builds a source for the tests.
func src(t *testing.T, name string, auth bool, crawlers, domains []string, lists ...*List) *Source {
	t.Helper()
	s := &Source{Name: name, Operator: "Op " + name, URL: "https://example.com/" + name + ".json",
		Crawlers: crawlers, DNSDomains: domains, Authoritative: auth, Format: FormatPrefixes, origin: "test"}
	if err := s.setVersions(lists, func(*List) string { return name }); err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	t1 = time.Date(2026, 4, 11, 16, 28, 41, 0, time.UTC)
	t2 = time.Date(2026, 6, 9, 14, 45, 50, 0, time.UTC)
	t3 = time.Date(2026, 8, 7, 14, 45, 42, 0, time.UTC)
)

func us(t time.Time) int64 { return t.UnixMicro() }

func addr(s string) netip.Addr { return netip.MustParseAddr(s) }

type checkCase struct {
	name        string
	bot         string
	addr        string // "" for no address
	at          time.Time
	identity    Identity
	evidence    string
	source      string
	prefix      string
	from, until int64
	dns         bool
}

func runChecks(t *testing.T, r *Ranges, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a netip.Addr
			if tc.addr != "" {
				a = addr(tc.addr)
			}
			c := r.Check(tc.bot, a, us(tc.at))
			if c.Identity != tc.identity || c.Evidence != tc.evidence || c.Source != tc.source {
				t.Errorf("Check = %v %q (source %q)\n      want %v %q (source %q)", c.Identity, c.Evidence, c.Source, tc.identity, tc.evidence, tc.source)
			}
			if (tc.prefix == "" && c.Prefix.IsValid()) || (tc.prefix != "" && c.Prefix.String() != tc.prefix) {
				t.Errorf("Prefix = %v, want %q", c.Prefix, tc.prefix)
			}
			if c.From != tc.from || c.Until != tc.until {
				t.Errorf("[From, Until) = [%d, %d), want [%d, %d)", c.From, c.Until, tc.from, tc.until)
			}
			if c.DNS != tc.dns {
				t.Errorf("DNS = %v, want %v", c.DNS, tc.dns)
			}
			// The answer holds over [From, Until).
			for _, at := range []int64{c.From, c.Until - 1} {
				if at == math.MinInt64 || at == math.MaxInt64-1 {
					continue
				}
				if d := r.Check(tc.bot, a, at); d.Identity != c.Identity || d.Evidence != c.Evidence {
					t.Errorf("at %d, within [From, Until): %v %q", at, d.Identity, d.Evidence)
				}
			}
		})
	}
}

const (
	minI = math.MinInt64
	maxI = math.MaxInt64
)

// TestCheckInstants: before the first list, exactly at a creation time,
// between versions, after the last.
func TestCheckInstants(t *testing.T) {
	r := newRanges([]*Source{
		src(t, "bingbot", true, []string{"bingbot", "adidxbot"}, []string{"search.msn.com"},
			NewList(t1, pfx("157.55.39.0/24", "2620:1ec:c::/48")),
			NewList(t2, pfx("157.55.39.0/24", "207.46.13.0/24")),
			NewList(t3, pfx("207.46.13.0/24")),
		),
	}, nil)
	runChecks(t, r, []checkCase{
		// Before the first list: held by it, verified; not held, unverified
		// (never spoofed by a later list).
		{"before_first", "bingbot", "157.55.39.1", t1.Add(-time.Microsecond), Verified,
			"in bingbot list of 2026-04-11T16:28:41Z (its first, newer than the request): 157.55.39.0/24", "bingbot", "157.55.39.0/24", minI, us(t1), false},
		{"before_first_outside", "bingbot", "207.46.13.1", t1.Add(-time.Microsecond), Unverified,
			"no bingbot list before 2026-04-11T16:28:41Z", "", "", minI, us(t1), true},
		{"long_before_first", "bingbot", "1.2.3.4", time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC), Unverified,
			"no bingbot list before 2026-04-11T16:28:41Z", "", "", minI, us(t1), true},
		{"at_first", "bingbot", "157.55.39.1", t1, Verified,
			"in bingbot list of 2026-04-11T16:28:41Z: 157.55.39.0/24", "bingbot", "157.55.39.0/24", us(t1), us(t2), false},
		{"at_first_outside", "bingbot", "207.46.13.1", t1, Spoofed,
			"outside the bingbot list of 2026-04-11T16:28:41Z", "bingbot", "", us(t1), us(t2), true},
		{"between", "adidxbot", "207.46.13.1", t2.Add(time.Hour), Verified,
			"in bingbot list of 2026-06-09T14:45:50Z: 207.46.13.0/24", "bingbot", "207.46.13.0/24", us(t2), us(t3), false},
		{"just_before_second", "bingbot", "207.46.13.1", t2.Add(-time.Microsecond), Spoofed,
			"outside the bingbot list of 2026-04-11T16:28:41Z", "bingbot", "", us(t1), us(t2), true},
		{"at_last", "bingbot", "157.55.39.1", t3, Spoofed,
			"outside the bingbot list of 2026-08-07T14:45:42Z", "bingbot", "", us(t3), maxI, true},
		{"after_last", "bingbot", "207.46.13.200", time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), Verified,
			"in bingbot list of 2026-08-07T14:45:42Z: 207.46.13.0/24", "bingbot", "207.46.13.0/24", us(t3), maxI, false},
		{"IPv6", "bingbot", "2620:1ec:c::11", t1.Add(time.Second), Verified,
			"in bingbot list of 2026-04-11T16:28:41Z: 2620:1ec:c::/48", "bingbot", "2620:1ec:c::/48", us(t1), us(t2), false},
		{"IPv6_outside", "bingbot", "2620:1ec:c::11", t2, Spoofed,
			"outside the bingbot list of 2026-06-09T14:45:50Z", "bingbot", "", us(t2), us(t3), true},
		{"IPv4_mapped", "BingBot", "::ffff:157.55.39.7", t2, Verified,
			"in bingbot list of 2026-06-09T14:45:50Z: 157.55.39.0/24", "bingbot", "157.55.39.0/24", us(t2), us(t3), false},
		{"no_address", "bingbot", "", t2, Unverified, "no client address", "", "", minI, maxI, false},
	})
}

// TestCheckSources: bots of several sources, of none, of reverse DNS only,
// and of lists that are not the operator's.
func TestCheckSources(t *testing.T) {
	fetchers := []string{"FeedFetcher-Google"}
	r := newRanges([]*Source{
		src(t, "google-common-crawlers", true, []string{"Googlebot"}, []string{"googlebot.com", "google.com"},
			NewList(t1, pfx("66.249.64.0/27", "2001:4860:4801:10::/64"))),
		src(t, "fetchers", true, fetchers, []string{"googleusercontent.com"},
			NewList(t1, pfx("34.64.6.0/24"))),
		src(t, "fetchers-google", true, fetchers, []string{"google.com"},
			NewList(t2, pfx("66.102.8.0/24"))),
		src(t, "agents", true, []string{"Google-Agent"}, []string{"google.com"}),
		src(t, "perplexity-user", true, []string{"Perplexity-User"}, nil),
		src(t, "meta", false, []string{"meta-externalagent"}, nil, NewList(t1, pfx("31.13.24.0/21"))),
		src(t, "yandex", false, []string{"YandexBot"}, nil, NewList(t1, pfx("5.45.192.0/18"))),
		src(t, "gptbot", true, []string{"GPTBot"}, nil, NewList(t1, pfx("4.227.36.0/25"))),
		src(t, "gptbot-as", false, []string{"GPTBot"}, nil, NewList(t1, pfx("4.0.0.0/8"))),
	}, []DNSOnly{{Operator: "Yandex", Crawlers: []string{"YandexBot"}, DNSDomains: []string{"yandex.ru", ".Yandex.NET."}}})
	between := t1.Add(time.Hour)
	runChecks(t, r, []checkCase{
		{"one_list", "Googlebot", "66.249.64.1", t3, Verified,
			"in google-common-crawlers list of 2026-04-11T16:28:41Z: 66.249.64.0/27", "google-common-crawlers", "66.249.64.0/27", us(t1), maxI, false},
		{"one_list_IPv6", "googlebot", "2001:4860:4801:10::abcd", t3, Verified,
			"in google-common-crawlers list of 2026-04-11T16:28:41Z: 2001:4860:4801:10::/64", "google-common-crawlers", "2001:4860:4801:10::/64", us(t1), maxI, false},
		{"one_list_spoofed", "Googlebot", "66.249.65.1", t3, Spoofed,
			"outside the google-common-crawlers list of 2026-04-11T16:28:41Z", "google-common-crawlers", "", us(t1), maxI, true},
		// Two sources: one in effect, the other not yet: never spoofed.
		{"two_one_not_yet", "FeedFetcher-Google", "1.2.3.4", between, Unverified,
			"no fetchers-google list before 2026-06-09T14:45:50Z; outside the fetchers list of 2026-04-11T16:28:41Z", "", "", us(t1), us(t2), true},
		{"two_one_not_yet_inside", "FeedFetcher-Google", "34.64.6.9", between, Verified,
			"in fetchers list of 2026-04-11T16:28:41Z: 34.64.6.0/24", "fetchers", "34.64.6.0/24", us(t1), us(t2), false},
		{"two_in_effect", "FeedFetcher-Google", "1.2.3.4", t3, Spoofed,
			"outside the fetchers list of 2026-04-11T16:28:41Z and the fetchers-google list of 2026-06-09T14:45:50Z", "fetchers,fetchers-google", "", us(t2), maxI, true},
		{"two_in_effect_second", "FeedFetcher-Google", "66.102.8.1", t3, Verified,
			"in fetchers-google list of 2026-06-09T14:45:50Z: 66.102.8.0/24", "fetchers-google", "66.102.8.0/24", us(t2), maxI, false},
		{"before_both", "FeedFetcher-Google", "198.51.100.9", t1.Add(-time.Hour), Unverified,
			"no fetchers list before 2026-04-11T16:28:41Z; no fetchers-google list before 2026-06-09T14:45:50Z", "", "", minI, us(t1), true},
		{"before_both_in_first", "FeedFetcher-Google", "34.64.6.9", t1.Add(-time.Hour), Verified,
			"in fetchers list of 2026-04-11T16:28:41Z (its first, newer than the request): 34.64.6.0/24", "fetchers", "34.64.6.0/24", minI, us(t1), false},
		// A source without any list, and DNS domains.
		{"no_list_at_hand_dns", "Google-Agent", "1.2.3.4", t3, Unverified,
			"no agents list at hand", "", "", minI, maxI, true},
		{"no_list_at_hand", "Perplexity-User", "1.2.3.4", t3, Unverified,
			"no perplexity-user list at hand", "", "", minI, maxI, false},
		// Lists derived from an AS never decide.
		{"not_authoritative", "meta-externalagent", "31.13.24.1", t3, Unverified,
			"no published ranges or reverse DNS for meta-externalagent (the meta list is derived from the operator's AS, which settles nothing)", "", "", minI, maxI, false},
		{"not_authoritative_beside", "GPTBot", "4.1.2.3", t3, Spoofed,
			"outside the gptbot list of 2026-04-11T16:28:41Z", "gptbot", "", us(t1), maxI, false},
		{"dns_only", "YandexBot", "5.45.192.1", t3, Unverified,
			"YandexBot's operator publishes no ranges", "", "", minI, maxI, true},
		{"unknown_bot", "curl", "1.2.3.4", t3, Unverified,
			"no published ranges or reverse DNS for curl", "", "", minI, maxI, false},
		{"unknown_bot_no_address", "curl", "", t3, Unverified,
			"no published ranges or reverse DNS for curl", "", "", minI, maxI, false},
	})
	for _, tc := range []struct {
		bot        string
		verifiable bool
		domains    []string
	}{
		{"Googlebot", true, []string{"google.com", "googlebot.com"}},
		{"FEEDFETCHER-GOOGLE", true, []string{"google.com", "googleusercontent.com"}},
		{"Google-Agent", true, []string{"google.com"}},
		{"Perplexity-User", false, nil},
		{"meta-externalagent", false, nil},
		{"YandexBot", true, []string{"yandex.net", "yandex.ru"}},
		{"curl", false, nil},
	} {
		if got := r.Verifiable(tc.bot); got != tc.verifiable {
			t.Errorf("Verifiable(%s) = %v", tc.bot, got)
		}
		if got := r.DNSDomains(tc.bot); !slices.Equal(got, tc.domains) {
			t.Errorf("DNSDomains(%s) = %v, want %v", tc.bot, got, tc.domains)
		}
	}
	// draft-illyes-webbotauth-cbcp-01 §2.5: the operator publishes its
	// ranges. An operator's source that holds no list yet (Perplexity-User,
	// Google-Agent), reverse DNS alone, and a list that is not the
	// operator's (meta's and Yandex's here, derived from their AS) do not
	// count.
	for bot, want := range map[string]bool{"Googlebot": true, "gptbot": true, "Perplexity-User": false, "Google-Agent": false, "YandexBot": false, "meta-externalagent": false, "curl": false} {
		if got := r.PublishesRanges(bot); got != want {
			t.Errorf("PublishesRanges(%s) = %v, want %v", bot, got, want)
		}
	}
}

func TestCheckAllocs(t *testing.T) {
	r := newRanges([]*Source{src(t, "s", true, []string{"Bot"}, nil, NewList(t1, pfx("1.2.3.0/24")))}, nil)
	a := addr("9.9.9.9")
	if n := testing.AllocsPerRun(100, func() { _ = r.Check("Bot", a, us(t2)) }); n > 1 {
		t.Errorf("Check of a spoofed address allocates %v times", n)
	}
}

func TestOverride(t *testing.T) {
	base := newRanges([]*Source{
		src(t, "a", true, []string{"ABot"}, nil, NewList(t1, pfx("1.0.0.0/8"))),
		src(t, "b", true, []string{"BBot"}, nil, NewList(t1, pfx("2.0.0.0/8"))),
	}, []DNSOnly{{Crawlers: []string{"CBot"}, DNSDomains: []string{"c.example"}}})
	over := newRanges([]*Source{
		src(t, "b", true, []string{"BBot"}, nil, NewList(t2, pfx("3.0.0.0/8"))),
		src(t, "new", true, []string{"NBot"}, nil, NewList(t2, pfx("4.0.0.0/8"))),
	}, nil)
	r := base.Override(over)
	var got []string
	for _, s := range r.Sources() {
		got = append(got, s.Name)
	}
	if !slices.Equal(got, []string{"a", "b", "new"}) {
		t.Fatalf("sources %v", got)
	}
	if c := r.Check("BBot", addr("3.1.1.1"), us(t3)); c.Identity != Verified {
		t.Errorf("the override's list is not used: %+v", c)
	}
	if c := r.Check("BBot", addr("2.1.1.1"), us(t3)); c.Identity != Spoofed {
		t.Errorf("the replaced list is still used: %+v", c)
	}
	if c := r.Check("BBot", addr("2.1.1.1"), us(t1)); c.Identity != Unverified {
		t.Errorf("the replaced list's history is still used: %+v", c)
	}
	if c := r.Check("ABot", addr("1.1.1.1"), us(t3)); c.Identity != Verified {
		t.Errorf("the kept source: %+v", c)
	}
	if c := r.Check("NBot", addr("4.1.1.1"), us(t3)); c.Identity != Verified {
		t.Errorf("the added source: %+v", c)
	}
	if !r.Verifiable("CBot") {
		t.Error("the DNS-only crawlers are lost")
	}
	if c := base.Check("BBot", addr("2.1.1.1"), us(t3)); c.Identity != Verified {
		t.Errorf("Override modified its receiver: %+v", c)
	}
}

func TestInfoJSON(t *testing.T) {
	r := newRanges([]*Source{
		src(t, "a", true, []string{"ABot"}, nil, NewList(t1, pfx("1.0.0.0/8")), NewList(t2, pfx("1.0.0.0/9"))),
		src(t, "empty", true, []string{"EBot"}, nil),
	}, nil)
	b, err := json.Marshal(r.Info())
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"a","operator":"Op a","url":"https://example.com/a.json","versions":2,"first":"2026-04-11T16:28:41Z","last":"2026-06-09T14:45:50Z","origin":"test"},` +
		`{"name":"empty","operator":"Op empty","url":"https://example.com/empty.json","versions":0,"origin":"test"}]`
	if string(b) != want {
		t.Errorf("Info JSON\n got %s\nwant %s", b, want)
	}
}

func TestSetVersionsDedupe(t *testing.T) {
	s := src(t, "s", true, []string{"Bot"}, nil,
		NewList(t2, pfx("1.0.0.0/8")),
		NewList(t1, pfx("1.0.0.0/8")),
		NewList(t3, pfx("1.0.0.0/8", "2.0.0.0/8")),
		NewList(t3.Add(time.Hour), pfx("2.0.0.0/8", "1.0.0.0/8")),
	)
	if len(s.Versions) != 2 || !s.Versions[0].Created.Equal(t1) || !s.Versions[1].Created.Equal(t3) {
		t.Fatalf("versions %v", s.Versions)
	}
	err := (&Source{Name: "s"}).setVersions([]*List{NewList(t1, pfx("1.0.0.0/8")), NewList(t1, pfx("2.0.0.0/8"))},
		func(l *List) string { return l.Prefixes()[0].String() })
	if err == nil || !strings.Contains(err.Error(), "two different s lists created at 2026-04-11T16:28:41Z") {
		t.Errorf("same creation time: %v", err)
	}
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"README.txt":                        "not a source",
		"bingbot/2026-04-11T16:28:41Z.json": `{"creationTime": "2024-01-03T10:00:00.121331", "prefixes": [{"ipv4Prefix": "157.55.39.0/24"}]}`,
		"bingbot/2026-06-01T00:00:00Z.json": `{"creationTime": "2026-06-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "157.55.39.0/24"}]}`,
		"bingbot/2026-07-01T00:00:00Z.json": `{"creationTime": "2026-07-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "207.46.13.0/24"}]}`,
		"bingbot/.tmp-123.json":             `garbage`,
		"bingbot/notes.txt":                 `garbage`,
		"ahrefs/2026-08-20T17-36-54Z.json":  `{"prefixes": [{"ipv4Prefix": "5.39.1.224/27"}]}`,
		"ahrefs/2026-08-21T10:00:00Z.json":  `{"ips": [{"ip_address": "5.39.1.225"}]}`,
		"yandex/2026-04-11T17:20:42Z.json":  `{"creationTime": "2026-04-11T17:20:42Z", "prefixes": [{"ipv4Prefix": "5.45.192.0/18"}]}`,
		".git/config":                       "x",
	})
	if err := os.MkdirAll(filepath.Join(dir, "applebot"), 0o755); err != nil { // no list: not held
		t.Fatal(err)
	}
	r, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	info := r.Info()
	var got []string
	for _, si := range info {
		got = append(got, si.Name)
		if si.Origin != filepath.Join(dir, si.Name) {
			t.Errorf("%s: origin %q", si.Name, si.Origin)
		}
	}
	if !slices.Equal(got, []string{"bingbot", "ahrefs", "yandex"}) {
		t.Fatalf("sources %v (the order of sources.json, held ones only)", got)
	}
	bing := r.Source("bingbot")
	if len(bing.Versions) != 2 || !bing.Versions[0].Created.Equal(time.Date(2024, 1, 3, 10, 0, 0, 121331000, time.UTC)) {
		t.Errorf("bingbot versions: the file's own creation time wins over its name, identical lists are kept once: %v", bing.Versions)
	}
	ah := r.Source("ahrefs")
	if len(ah.Versions) != 2 || !ah.Versions[0].Created.Equal(time.Date(2026, 8, 20, 17, 36, 54, 0, time.UTC)) {
		t.Errorf("ahrefs versions: the file name dates a list without creation time: %v", ah.Versions)
	}
	if c := r.Check("bingbot", addr("157.55.39.1"), us(t1)); c.Identity != Verified || c.Evidence != "in bingbot list of 2024-01-03T10:00:00Z: 157.55.39.0/24" {
		t.Errorf("Check: %+v", c)
	}
	if c := r.Check("YandexBot", addr("5.45.192.1"), us(t3)); c.Identity != Unverified || !c.DNS {
		t.Errorf("a list not published by the operator decided: %+v", c)
	}
}

func TestLoadDirErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		err   string // substrings
	}{
		{"unknown_source", map[string]string{"googlebot/x.json": "{}", "bing/y.json": "{}"},
			`unknown range source directory "bing", "googlebot" (the sources are: google-common-crawlers, google-special-crawlers`},
		{"malformed_file", map[string]string{"openai-gptbot/2026-01-01T00:00:00Z.json": `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "4.227.36.0/33"}]}`},
			`openai-gptbot/2026-01-01T00:00:00Z.json: prefixes[0].ipv4Prefix "4.227.36.0/33": bad prefix`},
		{"not_json", map[string]string{"openai-gptbot/2026-01-01T00:00:00Z.json": `<html>`},
			`openai-gptbot/2026-01-01T00:00:00Z.json: not a range list of this shape`},
		{"duplicate_key", map[string]string{"openai-gptbot/2026-01-01T00:00:00Z.json": `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "74.7.227.0/24"}, {"ipv4Prefix": "4.227.36.0/25", "ipv4Prefix": "0.0.0.0/0"}]}`},
			`openai-gptbot/2026-01-01T00:00:00Z.json: not a range list of this shape: prefixes[1] holds the key "ipv4Prefix" twice`},
		{"no_creation_time", map[string]string{"anthropic/2026-01-01T00:00:00Z.json": `{"prefixes": []}`},
			`anthropic/2026-01-01T00:00:00Z.json: creationTime: bad creation time: missing`},
		{"ahrefs_bad_name", map[string]string{"ahrefs/latest.json": `{"prefixes": []}`},
			`ahrefs/latest.json: bad creation time: the file name "latest.json" is not an RFC 3339 creation time`},
		{"same_time_different_lists", map[string]string{
			"commoncrawl/a.json": `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "3.41.188.32/29"}]}`,
			"commoncrawl/b.json": `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "18.97.9.168/29"}]}`},
			`two different commoncrawl lists created at 2026-01-01T00:00:00Z`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			_, err := LoadDir(dir)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
		})
	}
	if _, err := LoadDir(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("no error for an absent directory")
	}
}

func TestParseFileTime(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"2026-08-21T14:45:42Z.json", "2026-08-21T14:45:42Z"},
		{"2026-08-21T14-45-42Z.json", "2026-08-21T14:45:42Z"},
		{"2026-08-21T14:45:42.5+02:00.json", "2026-08-21T12:45:42.5Z"},
		{"2026-08-21T14-45-42+02:00.json", "2026-08-21T12:45:42Z"},
		{"2026-08-21.json", ""},
	} {
		got, err := parseFileTime(tc.name)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: %v, want an error", tc.name, got)
			}
			continue
		}
		if err != nil || got.Format(time.RFC3339Nano) != tc.want {
			t.Errorf("%s: %v, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}

// TestCheckConcurrent runs Check from several goroutines (go test -race).
func TestCheckConcurrent(t *testing.T) {
	r, err := Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	at := us(time.Date(2026, 10, 15, 0, 0, 0, 0, time.UTC))
	done := make(chan bool)
	for g := range 4 {
		go func() {
			for i := range 2000 {
				a := netip.AddrFrom4([4]byte{66, 249, byte(64 + i%32), byte(g)})
				if c := r.Check("Googlebot", a, at); c.Identity == Unverified {
					t.Errorf("Check(%s) = %+v", a, c)
				}
				_ = r.Verifiable("gptbot")
				_ = r.DNSDomains("YandexBot")
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}

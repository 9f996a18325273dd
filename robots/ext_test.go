package robots

import (
	"testing"
	"time"
)

// unixAt returns the Unix time of hh:mm:ss UTC on 2026-10-01.
func unixAt(hh, mm, ss int) int64 {
	return time.Date(2026, 10, 1, hh, mm, ss, 0, time.UTC).Unix()
}

// TestConner1996_RequestRateForms: the rates of the 2.0.0 proposal (seed
// 000): "10/60 - no more than 10 documents per 60 secs", "10/10m - no more
// than 10 documents per 10 mins", "20/1h - no more than 20 documents per
// hour", and a rate with a time window. The unit d (days) is
// VIPnytt/RobotsTxtParser's (seed 002's parser,
// https://github.com/VIPnytt/RobotsTxtParser/blob/b215f8e4e9eb57fee13ea5ae76ee68a78b420944/src/Parser/Directives/RequestRateParser.php,
// draftParseRate: "case 'd': $multiplier = 86400"): Request-rate also
// accepts the unit d (days), as other parsers do, so a file written for
// them means the same here.
func TestConner1996_RequestRateForms(t *testing.T) {
	for _, c := range []struct {
		in        string
		n, secs   int
		window    string
		wantError bool
	}{
		{"10/60", 10, 60, "", false},
		{"10/10m", 10, 600, "", false},
		{"20/1h", 20, 3600, "", false},
		{"1/10s 0800-1700", 1, 10, "0800-1700", false},
		{"1/5", 1, 5, "", false},
		{"3/1M", 3, 60, "", false},
		{"1/m", 1, 60, "", false},
		{"5/30 22:00-06:00", 5, 30, "2200-0600", false},
		{"5/30 2200 - 0600", 5, 30, "2200-0600", false},
		{"", 0, 0, "", true},
		{"10", 0, 0, "", true},
		{"0/60", 0, 0, "", true},
		{"10/0", 0, 0, "", true},
		{"10/", 0, 0, "", true},
		{"-1/60", 0, 0, "", true},
		{"1/1d", 1, 86400, "", false},                        // VIPnytt draftParseRate: 'd' => 86400
		{"10/60d", 10, 60 * 86400, "", false},                // VIPnytt draftParseRate
		{"2/3D 0100-0300", 2, 3 * 86400, "0100-0300", false}, // units are case-insensitive, as s, m, h
		{"1/d", 1, 86400, "", false},                         // as "1/m": the count may be left out
		{"1/1000000h", 1, 1e6 * 3600, "", false},             // the longest period
		{"1/41667d", 0, 0, "", true},                         // over 1,000,000 hours
		{"1/1w", 0, 0, "", true},                             // no other unit
		{"1/1dd", 0, 0, "", true},
		{"1/10s 0800", 0, 0, "", true},
		{"1/10s 0800-2500", 0, 0, "", true},
		{"1/10s 0800-0800", 0, 0, "", true},
		{"ten/60", 0, 0, "", true},
	} {
		r, err := parseRequestRate(c.in)
		if (err != nil) != c.wantError {
			t.Errorf("%q: err %v", c.in, err)
			continue
		}
		if c.wantError {
			continue
		}
		w := ""
		if r.HasWindow {
			w = r.Window.String()
		}
		if r.Requests != c.n || r.Seconds != c.secs || w != c.window {
			t.Errorf("%q: %d/%d window %q, want %d/%d %q", c.in, r.Requests, r.Seconds, w, c.n, c.secs, c.window)
		}
	}
}

// TestConner1996_RequestRateInForce: "If time is given, then the robot is
// to use the given rate (and no faster) if the time is between the times
// given. If more than one 'Request-rate:' header is given and does NOT
// include the time, use the one that requests the fewest documents per unit
// of time."
func TestConner1996_RequestRateInForce(t *testing.T) {
	body := "User-agent: *\nRequest-rate: 20/1h\nRequest-rate: 10/60\nRequest-rate: 1/10s 0800-1700\nRequest-rate: 30/1m 2200-0200\n"
	g := Compile(Parse([]byte(body)), RFC9309).Resolve("x")
	for _, c := range []struct {
		at      int64
		n, secs int
	}{
		{unixAt(7, 59, 59), 20, 3600}, // no window: 20/h is stricter than 10/min
		{unixAt(8, 0, 0), 1, 10},
		{unixAt(16, 59, 59), 1, 10},
		{unixAt(17, 0, 0), 20, 3600}, // window end is exclusive
		{unixAt(23, 0, 0), 30, 60},   // wraps midnight
		{unixAt(1, 59, 0), 30, 60},
		{unixAt(2, 0, 0), 20, 3600},
	} {
		n, s, ok := g.RequestRate(c.at)
		if !ok || n != c.n || s != c.secs {
			t.Errorf("at %s: %d/%d %v, want %d/%d", time.Unix(c.at, 0).UTC().Format(time.TimeOnly), n, s, ok, c.n, c.secs)
		}
	}
	// Windowed lines only: no rate outside them.
	g = Compile(Parse([]byte("User-agent: *\nRequest-rate: 1/10s 0800-1700\n")), RFC9309).Resolve("x")
	if _, _, ok := g.RequestRate(unixAt(18, 0, 0)); ok {
		t.Error("a rate outside its window")
	}
	r, ok := g.RequestRateAt(unixAt(9, 0, 0))
	if !ok || r.Line != 2 {
		t.Errorf("RequestRateAt: %+v %v", r, ok)
	}
}

// TestConner1996_VisitTime: "Visit-time: <time> <time>" in UTC; the
// VIPnytt form "HHMM-HHMM" (seed 002); windows may wrap midnight.
func TestConner1996_VisitTime(t *testing.T) {
	for _, c := range []struct {
		value      string
		start, end int
		in, out    []int64
		invalid    bool
	}{
		{"0100-0600", 60, 360, []int64{unixAt(1, 0, 0), unixAt(5, 59, 59)}, []int64{unixAt(0, 59, 59), unixAt(6, 0, 0), unixAt(12, 0, 0)}, false},
		{"0100 0600", 60, 360, []int64{unixAt(3, 0, 0)}, []int64{unixAt(7, 0, 0)}, false},
		{"2200-0600", 1320, 360, []int64{unixAt(23, 0, 0), unixAt(0, 0, 0), unixAt(5, 59, 0)}, []int64{unixAt(6, 0, 0), unixAt(21, 59, 59)}, false},
		{"0000-2400", 0, 1440, []int64{unixAt(0, 0, 0), unixAt(23, 59, 59)}, nil, false},
		{"01:30-02:45", 90, 165, []int64{unixAt(1, 30, 0)}, []int64{unixAt(2, 45, 0)}, false},
		{"0600-0600", 0, 0, nil, nil, true},
		{"2400-0100", 0, 0, nil, nil, true},
		{"0160-0200", 0, 0, nil, nil, true},
		{"morning", 0, 0, nil, nil, true},
		{"", 0, 0, nil, nil, true},
	} {
		f := Parse([]byte("User-agent: *\nVisit-time: " + c.value + "\n"))
		g := Compile(f, RFC9309).Resolve("x")
		s, e, ok := g.VisitTime()
		if c.invalid {
			if ok || !hasCode(f, CodeInvalidVisitTime, 2) {
				t.Errorf("%q: accepted (%v)", c.value, f.Diagnostics)
			}
			if !g.InVisitTime(unixAt(12, 0, 0)) {
				t.Errorf("%q: no window, yet outside", c.value)
			}
			continue
		}
		if !ok || s != c.start || e != c.end || g.VisitTimeLine() != 2 {
			t.Errorf("%q: %d-%d %v", c.value, s, e, ok)
		}
		for _, at := range c.in {
			if !g.InVisitTime(at) {
				t.Errorf("%q: %s outside", c.value, time.Unix(at, 0).UTC().Format(time.TimeOnly))
			}
		}
		for _, at := range c.out {
			if g.InVisitTime(at) {
				t.Errorf("%q: %s inside", c.value, time.Unix(at, 0).UTC().Format(time.TimeOnly))
			}
		}
	}
	// Instants before 1970 work too.
	if !(Window{Start: 60, End: 120}).Contains(-86400 + 90*60) {
		t.Error("negative instant")
	}
}

// TestConner1996_Alfred is the 2.0.0 proposal's example file: Robot-version
// is kept; the groups and rules read as every profile reads them.
func TestConner1996_Alfred(t *testing.T) {
	body := `# the following robot only understands 1.0.0
User-agent: Fredsbot # if it don't understand 2.0.0
Disallow: / # it's unwelcome here

User-agent: Chives
Robot-version: 2.0.0
Allow: */index.html # only allow index pages

User-agent: Alfred
Robot-version: 2.0.0
Allow: /blackhole/index.html
Allow: /blackhole/info*
Disallow: *.shtml
Disallow: /blackhole/info99*
Disallow: /blackhole/info8.html

User-agent: *
Disallow: /
`
	f := Parse([]byte(body))
	if len(f.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", f.Diagnostics)
	}
	for _, p := range Profiles {
		r := Compile(f, p)
		if v, ok := r.Resolve("Alfred").RobotVersion(); !ok || v != "2.0.0" {
			t.Errorf("%s: robot-version %q %v", p, v, ok)
		}
		if fileAllows(t, body, p, "Fredsbot", "/a") || fileAllows(t, body, p, "other", "/a") {
			t.Errorf("%s: Fredsbot or other allowed", p)
		}
	}
	// Under rfc9309 the longest match decides: /blackhole/info99x is
	// disallowed by "/blackhole/info99*" (18 octets) over "/blackhole/info*".
	if fileAllows(t, body, RFC9309, "Alfred", "/blackhole/info99x") || !fileAllows(t, body, RFC9309, "Alfred", "/blackhole/info1") {
		t.Error("rfc9309 longest match on Alfred")
	}
}

// TestExtensions_Values covers Crawl-delay, Cache-delay, Comment, Noindex,
// Clean-param, Sitemap and Host.
func TestExtensions_Values(t *testing.T) {
	body := `Sitemap: https://example.com/sitemap.xml
User-agent: FooBot
Crawl-delay: 0.5
Cache-delay: 10
Comment: mail robots@example.com to be let in
Noindex: /drafts/
Clean-param: ref&utm_source /articles/
Clean-param: sid
Host: example.com
Disallow: /x

User-agent: FooBot
Crawl-delay: 7
Comment: second group
User-agent: *
Crawl-delay: 10s
Crawl-delay: -1
Cache-delay: soon
Clean-param:
`
	f := Parse([]byte(body))
	if len(f.Sitemaps) != 1 || f.Sitemaps[0].Value != "https://example.com/sitemap.xml" || len(f.Hosts) != 1 || f.Hosts[0].Line != 9 {
		t.Errorf("sitemaps %v hosts %v", f.Sitemaps, f.Hosts)
	}
	for _, c := range []struct {
		code Code
		line int
	}{{CodeInvalidCrawlDelay, 16}, {CodeInvalidCrawlDelay, 17}, {CodeInvalidCacheDelay, 18}, {CodeEmptyCleanParam, 19}} {
		if !hasCode(f, c.code, c.line) {
			t.Errorf("no %s at line %d", c.code, c.line)
		}
	}
	g := Compile(f, RFC9309).Resolve("foobot")
	if s, ok := g.CrawlDelay(); !ok || s != 7 || g.CrawlDelayLine() != 13 {
		t.Errorf("merged crawl-delay %v %v line %d, want the larger, 7 at line 13", s, ok, g.CrawlDelayLine())
	}
	if s, ok := g.CacheDelay(); !ok || s != 10 {
		t.Errorf("cache-delay %v", s)
	}
	if cs := g.Comments(); len(cs) != 2 || cs[0].Value != "mail robots@example.com to be let in" || cs[1].Line != 14 {
		t.Errorf("comments %v", cs)
	}
	if n := g.Noindex(); len(n) != 1 || n[0].Value != "/drafts/" {
		t.Errorf("noindex %v", n)
	}
	cp := g.CleanParams()
	if len(cp) != 2 || len(cp[0].Params) != 2 || cp[0].Params[1] != "utm_source" || cp[0].Path != "/articles/" || cp[1].Params[0] != "sid" || cp[1].Path != "" {
		t.Errorf("clean-param %+v", cp)
	}
	star := Compile(f, RFC9309).Resolve("other")
	if _, ok := star.CrawlDelay(); ok {
		t.Error("invalid crawl-delays were kept")
	}
	// Koster1996 uses only the first FooBot record: Crawl-delay 0.5.
	if s, _ := Compile(f, Koster1996).Resolve("foobot").CrawlDelay(); s != 0.5 {
		t.Errorf("koster1996 crawl-delay %v", s)
	}
}

func TestParseDelay(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"10", 10, true}, {"0.5", 0.5, true}, {".5", 0.5, true}, {"2.", 2, true}, {"0", 0, true},
		{"", 0, false}, {".", 0, false}, {"1.2.3", 0, false}, {"-1", 0, false}, {"+1", 0, false},
		{"1e3", 0, false}, {"NaN", 0, false}, {"Inf", 0, false}, {"10s", 0, false}, {"99999999999", 0, false},
	} {
		got, err := parseDelay(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%q: %v %v", c.in, got, err)
		}
	}
}

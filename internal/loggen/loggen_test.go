package loggen

import (
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// collect generates cfg and returns copies of the requests.
func collect(t testing.TB, cfg Config) []Request {
	t.Helper()
	var rs []Request
	err := Generate(cfg, func(r *Request) error {
		c := *r
		c.Target = slices.Clone(r.Target)
		c.Referer = slices.Clone(r.Referer)
		rs = append(rs, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func render(t testing.TB, cfg Config, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, format)
	if err != nil {
		t.Fatal(err)
	}
	if err := Generate(cfg, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var sampleMemo struct {
	sync.Once
	rs []Request
}

// sample returns the requests of SampleConfig, generated once per test run.
func sample(t testing.TB) []Request {
	sampleMemo.Do(func() { sampleMemo.rs = collect(t, SampleConfig()) })
	return sampleMemo.rs
}

func TestDeterministic(t *testing.T) {
	cfg := SampleConfig()
	cfg.Lines = 20000
	cfg.Hosts = []string{"www.example.com", "shop.example.org"}
	for _, f := range Formats {
		a, b := render(t, cfg, f), render(t, cfg, f)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two runs with seed %d differ", f, cfg.Seed)
		}
		cfg2 := cfg
		cfg2.Seed = 2
		if bytes.Equal(a, render(t, cfg2, f)) {
			t.Errorf("%s: seeds 1 and 2 give the same output", f)
		}
	}
}

func TestExactLinesInOrderInPeriod(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines int
		hosts []string
		span  time.Duration
	}{
		{"empty", 0, nil, 24 * time.Hour},
		{"one", 1, nil, 24 * time.Hour},
		{"small", 999, []string{"a.example", "b.example"}, 24 * time.Hour},
		{"week", 30001, []string{"a.example", "b.example", "c.example"}, 7 * 24 * time.Hour},
		{"two hours, dense", 50000, nil, 2 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Date(2026, 10, 24, 0, 0, 0, 0, time.UTC)
			cfg := Config{Seed: 7, Start: start, End: start.Add(tc.span), Lines: tc.lines, Hosts: tc.hosts}
			rs := collect(t, cfg)
			if len(rs) != tc.lines {
				t.Fatalf("got %d requests, want %d", len(rs), tc.lines)
			}
			perHost := map[string]int{}
			for i, r := range rs {
				if r.Unix < cfg.Start.Unix() || r.Unix >= cfg.End.Unix() {
					t.Fatalf("request %d at %d outside [%d, %d)", i, r.Unix, cfg.Start.Unix(), cfg.End.Unix())
				}
				if i > 0 && r.Unix < rs[i-1].Unix {
					t.Fatalf("request %d at %d before request %d at %d", i, r.Unix, i-1, rs[i-1].Unix)
				}
				perHost[r.Host]++
			}
			if n := len(tc.hosts); n > 1 {
				for _, h := range tc.hosts {
					if d := perHost[h] - tc.lines/n; d < 0 || d > 1 {
						t.Errorf("host %s has %d requests, want %d or one more", h, perHost[h], tc.lines/n)
					}
				}
			}
		})
	}
}

func TestBadConfig(t *testing.T) {
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for _, cfg := range []Config{
		{Start: start, End: start, Lines: 10},
		{Start: start, End: start.Add(time.Minute), Lines: 10},
		{Start: start, End: start.Add(24 * time.Hour), Lines: -1},
		{Start: start, End: start.Add(24 * time.Hour), Lines: 1, Hosts: []string{"a b"}},
		{Start: start, End: start.Add(24 * time.Hour), Lines: 1, Hosts: []string{"../etc"}},
	} {
		if err := Generate(cfg, func(*Request) error { return nil }); err == nil {
			t.Errorf("Generate(%+v) succeeded, want an error", cfg)
		}
	}
	stop := io.ErrShortWrite
	n := 0
	err := Generate(Config{Start: start, End: start.Add(24 * time.Hour), Lines: 100}, func(*Request) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("emit error: got %v after %d calls, want %v after 3", err, n, stop)
	}
}

// The Europe/Berlin offset changes from +0200 to +0100 at 2026-10-25T01:00Z.
func TestDSTOffsetChange(t *testing.T) {
	change := time.Date(2026, 10, 25, 1, 0, 0, 0, time.UTC).Unix()
	var before, after int
	for _, r := range sample(t) {
		want := int32(7200)
		if r.Unix >= change {
			want = 3600
		}
		if r.Offset != want {
			t.Fatalf("request at %s has offset %d, want %d", time.Unix(r.Unix, 0).UTC(), r.Offset, want)
		}
		if r.Unix >= change-3600 && r.Unix < change {
			before++
		}
		if r.Unix >= change && r.Unix < change+3600 {
			after++
		}
	}
	if before == 0 || after == 0 {
		t.Errorf("no requests in the hour before (%d) or after (%d) the change", before, after)
	}
	out := string(render(t, SampleConfig(), "combined"))
	for _, s := range []string{"[25/Oct/2026:02:", " +0200]", " +0100]"} {
		if !strings.Contains(out, s) {
			t.Errorf("combined output lacks %q", s)
		}
	}
	// Local 02:xx appears twice on 2026-10-25: once with each offset.
	if !strings.Contains(out, "[25/Oct/2026:02:") || !regexpLike(out, "25/Oct/2026:02:", "+0200") || !regexpLike(out, "25/Oct/2026:02:", "+0100") {
		t.Errorf("local hour 02 of 2026-10-25 does not appear with both offsets")
	}
}

// regexpLike reports whether a line of s contains both a and b.
func regexpLike(s, a, b string) bool {
	for line := range strings.Lines(s) {
		if strings.Contains(line, a) && strings.Contains(line, b) {
			return true
		}
	}
	return false
}

func TestAllCrawlersAppear(t *testing.T) {
	want := []string{"Googlebot", "Googlebot-Image", "bingbot", "GPTBot", "ClaudeBot", "CCBot", "PerplexityBot",
		"Bytespider", "YandexBot", "Baiduspider", "Applebot", "AhrefsBot", "SemrushBot", "MJ12bot", "DotBot",
		"PetalBot", "Amazonbot", "meta-externalagent", "curl", "python-requests", "Go-http-client", "Wget"}
	got := map[string]int{}
	fetches := map[string]int{}
	actors := map[string]bool{}
	var browsers, v6 int
	for _, r := range sample(t) {
		got[r.Bot]++
		actors[r.Actor] = true
		if string(r.Target) == "/robots.txt" {
			fetches[r.Bot]++
		}
		if r.Behavior == Browser {
			browsers++
		}
		if strings.Contains(r.ClientIP, ":") {
			v6++
		}
		// The product name must be in the User-Agent, the way the audit finds it.
		if r.Bot != "" && !tokenIn(strings.ToLower(r.UserAgent), strings.ToLower(r.Bot)) {
			t.Fatalf("bot %q not found as a product name in %q", r.Bot, r.UserAgent)
		}
	}
	for _, b := range want {
		if got[b] == 0 {
			t.Errorf("no requests of %s", b)
		}
	}
	for _, a := range []string{"Googlebot smartphone", "Googlebot desktop", "Googlebot (spoofed)", "bingbot (spoofed)", "GPTBot (spoofed)", "ClaudeBot (spoofed)"} {
		if !actors[a] {
			t.Errorf("no requests of %s", a)
		}
	}
	// Crawlers fetch robots.txt roughly daily over the 31 days.
	for _, b := range []string{"bingbot", "GPTBot", "ClaudeBot", "Bytespider", "PetalBot", "Applebot"} {
		if n := fetches[b]; n < 25 || n > 50 {
			t.Errorf("%s fetched /robots.txt %d times in 31 days, want about daily", b, n)
		}
	}
	n := len(sample(t))
	if browsers < n/2 || browsers > n*3/4 {
		t.Errorf("%d of %d requests from browsers, want between half and three quarters", browsers, n)
	}
	if v6 < n/20 {
		t.Errorf("only %d of %d requests over IPv6", v6, n)
	}
}

func TestSpoofedGooglebotOutsideGoogleRanges(t *testing.T) {
	for _, r := range sample(t) {
		google := strings.HasPrefix(r.ClientIP, "66.249.") || strings.HasPrefix(r.ClientIP, "2001:4860:4801:")
		if r.Behavior == Spoofed && google || r.Bot == "Googlebot" && r.Behavior == Polite && !google {
			t.Fatalf("%s from %s", r.Actor, r.ClientIP)
		}
		if r.Behavior == Spoofed && string(r.Target) == "/robots.txt" {
			t.Fatalf("the spoofed %s fetched robots.txt", r.Bot)
		}
		// Other impostors come from documentation addresses (RFC 5737,
		// RFC 3849), in no operator's list.
		if r.Behavior == Spoofed && !google && r.Bot != "Googlebot" && !strings.HasPrefix(r.ClientIP, "192.0.2.") && !strings.HasPrefix(r.ClientIP, "2001:db8:") {
			t.Fatalf("%s from %s", r.Actor, r.ClientIP)
		}
	}
}

// judge returns the verdict of the history for a request: in effect at its
// time, and 24 h earlier.
func judge(vs []RobotsVersion, r *Request) (now, dayBefore bool) {
	now, dayBefore = true, true
	if i := versionAt(vs, r.Unix); i >= 0 {
		now = vs[i].Allowed(r.UserAgent, string(r.Target))
	}
	if i := versionAt(vs, r.Unix-86400); i >= 0 {
		dayBefore = vs[i].Allowed(r.UserAgent, string(r.Target))
	}
	return now, dayBefore
}

// What an audit should count, by behaviour, with the generator's reference
// matcher: polite crawlers are never disallowed outside the grace, the
// others are; browsers request disallowed paths. A polite crawler's
// requests made on a copy that a 4xx (a robots.txt outage) made "allow
// all" are apart: they may be disallowed by the version (TestOutages).
func TestBehaviorsAgainstRobots(t *testing.T) {
	vs := Robots(DefaultHost)
	disallowed := map[string]int{}
	grace := map[string]int{}
	onMissing := map[string]int{}
	var browserDisallowed int
	gptAfter := 0
	v2 := vs[1].At.Unix()
	var gptFetchedV2 int64
	rs := sample(t)
	st := replayRobots(rs)
	for i, r := range rs {
		now, before := judge(vs, &r)
		switch {
		case r.Behavior == Browser:
			if !now {
				browserDisallowed++
			}
			continue
		case !now && st[i].missing():
			onMissing[r.Actor]++
		case !now && before:
			grace[r.Actor]++
		case !now:
			disallowed[r.Actor]++
		}
		if r.Actor == "GPTBot" {
			if string(r.Target) == "/robots.txt" && r.Status == 200 && r.Unix >= v2 && gptFetchedV2 == 0 {
				gptFetchedV2 = r.Unix
			} else if gptFetchedV2 != 0 && string(r.Target) != "/robots.txt" && !st[i].missing() {
				gptAfter++
			}
		}
	}
	for actor, n := range disallowed {
		switch actor {
		case "Bytespider", "Googlebot (spoofed)", "bingbot (spoofed)", "GPTBot (spoofed)", "ClaudeBot (spoofed)", "curl", "python-requests", "Go-http-client", "Wget":
		default:
			t.Errorf("%s: %d requests disallowed by the version in effect and by the one 24 h before", actor, n)
		}
	}
	for _, actor := range []string{"Bytespider", "Googlebot (spoofed)", "curl", "python-requests"} {
		if disallowed[actor] == 0 {
			t.Errorf("%s has no disallowed requests", actor)
		}
	}
	if browserDisallowed < 1000 {
		t.Errorf("browsers made only %d disallowed requests", browserDisallowed)
	}
	if gptFetchedV2 == 0 || gptAfter != 0 {
		t.Errorf("GPTBot fetched the second version at %d and made %d requests after it (but on a 404)", gptFetchedV2, gptAfter)
	}
	t.Logf("disallowed %v, in grace %v, on a 4xx copy %v, browsers %d", disallowed, grace, onMissing, browserDisallowed)
}

// requestsBy returns the request times of one bot (product name), its
// impostors left out: their requests are not the crawler's.
func requestsBy(rs []Request, bot string) []int64 {
	var ts []int64
	for _, r := range rs {
		if r.Bot == bot && r.Behavior != Spoofed {
			ts = append(ts, r.Unix)
		}
	}
	return ts
}

func TestCrawlDelayRequestRateVisitTime(t *testing.T) {
	rs := sample(t)
	minGap := func(ts []int64) (m int64, under func(int64) int) {
		m = 1 << 62
		for i := 1; i < len(ts); i++ {
			m = min(m, ts[i]-ts[i-1])
		}
		return m, func(d int64) int {
			n := 0
			for i := 1; i < len(ts); i++ {
				if ts[i]-ts[i-1] < d {
					n++
				}
			}
			return n
		}
	}
	// Crawl-delay 5 (bingbot, YandexBot) and 10 (AhrefsBot, SemrushBot) kept;
	// MJ12bot (Crawl-delay 10) breaches it.
	for bot, delay := range map[string]int64{"bingbot": 5, "YandexBot": 5, "AhrefsBot": 10, "SemrushBot": 10} {
		if m, _ := minGap(requestsBy(rs, bot)); m < delay {
			t.Errorf("%s: two requests %d s apart, Crawl-delay is %d", bot, m, delay)
		}
	}
	if _, under := minGap(requestsBy(rs, "MJ12bot")); under(10) < 100 {
		t.Errorf("MJ12bot breaches Crawl-delay 10 only %d times", under(10))
	}
	// DotBot: more than 3 requests in a minute (Request-rate: 3/1m).
	ts := requestsBy(rs, "DotBot")
	breaches := 0
	for i := range ts {
		j := i
		for j > 0 && ts[j-1] > ts[i]-60 {
			j--
		}
		if i-j+1 > 3 {
			breaches++
		}
	}
	if breaches < 50 {
		t.Errorf("DotBot breaches Request-rate 3/1m only %d times", breaches)
	}
	// PetalBot: Visit-time 0100-0500 UTC.
	outside := 0
	ts = requestsBy(rs, "PetalBot")
	for _, t := range ts {
		if h := t % 86400 / 3600; h < 1 || h >= 5 {
			outside++
		}
	}
	if outside < len(ts)/2 {
		t.Errorf("PetalBot made only %d of %d requests outside its Visit-time", outside, len(ts))
	}
}

func TestPathsVariety(t *testing.T) {
	var pct, raw, query, head, post int
	for _, r := range sample(t) {
		s := string(r.Target)
		if strings.Contains(s, "%C3%") || strings.Contains(s, "%E6%") {
			pct++
		}
		for _, c := range r.Target {
			if c >= 0x80 {
				raw++
				break
			}
		}
		if strings.Contains(s, "?") {
			query++
		}
		switch r.Method {
		case "HEAD":
			head++
		case "POST":
			post++
		}
	}
	if pct < 100 || raw == 0 || query < 1000 || head == 0 || post == 0 {
		t.Errorf("percent-encoded %d, raw UTF-8 %d, with query %d, HEAD %d, POST %d", pct, raw, query, head, post)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/sample from the generator")

func TestSampleUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "sample")
	var buf bytes.Buffer
	w, err := NewGzipWriter(&buf, "combined")
	if err != nil {
		t.Fatal(err)
	}
	if err := Generate(SampleConfig(), w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{"access-2026-10.log.gz": buf.Bytes()}
	for _, v := range Robots(DefaultHost) {
		want[filepath.Join("robots", DefaultHost, v.FileName())] = []byte(v.Text)
	}
	for name, b := range want {
		if *update {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%v (regenerate with the command in testdata/sample/README.md)", err)
		}
		if !bytes.Equal(got, b) {
			t.Errorf("testdata/sample/%s is out of date: regenerate it with the command in testdata/sample/README.md", name)
		}
	}
	// The compressed sample must decompress to the plain rendering.
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain, render(t, SampleConfig(), "combined")) {
		t.Errorf("gzip output does not decompress to the combined output")
	}
}

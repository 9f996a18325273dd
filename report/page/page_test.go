package page

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/crawlaudit/crawlaudit/report"
)

// hostile are strings an attacker can put in a log.
var hostile = []string{
	"<script>alert(1)</script>",
	`"><img src=x onerror=alert(1)>`,
	"</script><script>alert(2)</script>",
	"javascript:alert(1)",
	"</style><style>body{display:none}</style>",
	"]]><svg onload=alert(1)>",
	"' onmouseover='alert(1)",
	"</title><script>alert(3)</script>",
}

// hostileFindings returns findings whose every string from a log is s.
func hostileFindings(s string) *report.Findings {
	day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	to := day.Add(47 * time.Hour)
	row := report.BotRow{Bot: s, Host: s, Identity: "spoofed", Operator: s, Purpose: s, Requests: 3, Disallowed: 2, Verdict: report.VerdictSpoofed}
	sum := &report.Summary{Input: report.Input{Lines: 3, Parsed: 3, From: &day, To: &to},
		Robots: []report.RobotsHost{{Host: s, Versions: 2}}, Bots: []report.BotRow{row},
		Audit: report.AuditInfo{Spec: "rfc9309", GraceSeconds: 86400, TimeResolution: "1s", Robots: s}}
	f := &report.Findings{Summary: sum, Tool: "crawlaudit test", Generated: day, Limits: report.DefaultLimits,
		Days: []time.Time{day, day.Add(24 * time.Hour)},
		Rows: []report.BotFindings{{BotRow: row, Requests: []int64{1, 2}, Disallowed: []int64{1, 1},
			UserAgents: []report.Count{{Value: s, N: 3}}, UserAgentsTotal: 1}},
		Timeline: []report.Series{{Label: s, Values: []int64{1, 2}, Total: 3}},
		PerDay:   []report.Series{{Label: "disallowed", Values: []int64{1, 1}, Total: 2}},
		Versions: []report.RobotsVersion{{Host: s, Name: s, Start: day, First: true},
			{Host: s, Name: s, Start: day.Add(12 * time.Hour), Diff: []report.DiffLine{{Op: '+', New: 1, Text: s}}, Added: 1}},
		Rules:             []report.BrokenRule{{Host: s, Version: s, Line: 1, Rule: "Disallow: " + s, Requests: 2, Bots: []report.Count{{Value: s, N: 2}}, BotsTotal: 1}},
		RulesTotal:        1,
		Paths:             []report.BotPaths{{Label: s, Bot: s, Host: s, Disallowed: 2, Paths: []report.PathCount{{Path: s, N: 2, Rule: s, Line: 1}}, PathsTotal: 1}},
		Breaches:          []report.BreachGroup{{Label: s, Bot: s, Host: s, Kind: "crawl-delay", Limit: s, Unit: s, N: 1, Worst: s, Median: s, First: day, Last: day}},
		CrawlDelayIgnored: []report.CrawlDelayNote{{Bot: s, Operator: s, N: 2, Control: s, ControlURL: s}},
		Block:             report.BlockFindings{Files: []string{s}, Kinds: []string{s}, Min: 1, AllowList: s, Addresses: 1, Blocks: 1, Entries: []report.BlockEntry{{Addr: s, Reasons: s, Claims: []string{s}}}},
		Preferences: []report.PrefVersion{{Host: s, Name: s, Start: day,
			Statements: []report.PreferenceStatement{{Directive: "Content-Usage", Group: s, Path: s, Value: s, Prefs: map[string]string{"train-ai": "n"}, Line: 1}},
			Rows:       []report.PrefExposure{{Bot: s, Purpose: s, Identity: "verified", Requests: 2, Exposed: 1}}, RowsTotal: 1}},
	}
	f.Headlines = report.Headlines(f)
	return f
}

// TestHostileStrings renders findings made of hostile strings: none may
// add an element, an attribute or a script; the page keeps exactly its own
// script and style, and its CSP.
func TestHostileStrings(t *testing.T) {
	for _, s := range hostile {
		var buf bytes.Buffer
		if err := Write(&buf, hostileFindings(s)); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		out := buf.String()
		// Parse the page as a browser does and look at every element.
		doc, err := html.Parse(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for n := range doc.Descendants() {
			if n.Type != html.ElementNode {
				continue
			}
			count[n.Data]++
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") {
					t.Errorf("%q: <%s %s=%q>", s, n.Data, a.Key, a.Val)
				}
				if (a.Key == "href" && !strings.HasPrefix(a.Val, "#")) || a.Key == "src" {
					t.Errorf("%q: <%s %s=%q>", s, n.Data, a.Key, a.Val)
				}
			}
		}
		if count["script"] != 1 || count["style"] != 1 || count["title"] != 1+strings.Count(out, "<title>")-1 {
			t.Errorf("%q: %d scripts, %d styles", s, count["script"], count["style"])
		}
		for _, el := range []string{"img", "iframe", "object", "embed", "link", "base", "form", "b"} {
			if count[el] > 0 {
				t.Errorf("%q: %d <%s> elements", s, count[el], el)
			}
		}
	}
}

// TestCSP checks that the CSP allows exactly the page's inline style and
// script, by the hash of what the page holds, and nothing else.
func TestCSP(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, hostileFindings("x")); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	sum := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(out)
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(out)
	if style == nil || script == nil {
		t.Fatal("no inline style or script")
	}
	meta := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(out)
	if meta == nil {
		t.Fatal("no CSP meta element")
	}
	csp := strings.ReplaceAll(meta[1], "&#39;", "'")
	for _, want := range []string{"default-src 'none'", "style-src " + sum(style[1]), "script-src " + sum(script[1]), "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") || strings.Contains(csp, "data:") {
		t.Errorf("CSP %q allows more than the inline style and script", csp)
	}
	// Nothing that would fetch: no URL in an attribute, no url() in CSS.
	if m := regexp.MustCompile(`(?i)(src|href|action|srcset|poster|data)\s*=\s*"(?:[^"#][^"]*)"`).FindString(out); m != "" {
		t.Errorf("the page refers to something outside it: %s", m)
	}
	if strings.Contains(styleCSS, "url(") || strings.Contains(styleCSS, "@import") {
		t.Error("the style loads something")
	}
}

// worstFindings fills every list of Findings to its limit with strings of
// the longest length the audit keeps (Limits.Chars; bot names at their 256
// bytes), over a year.
func worstFindings() *report.Findings {
	lim := report.DefaultLimits
	long := func(c byte) string { return strings.Repeat(string(c), lim.Chars) }
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var days []time.Time
	for i := 0; i < 366; i++ {
		days = append(days, day.AddDate(0, 0, i))
	}
	to := days[365].Add(24*time.Hour - time.Second)
	vals := func() []int64 {
		v := make([]int64, len(days))
		for i := range v {
			v[i] = int64(1000000 + i*7919%100000)
		}
		return v
	}
	sum := &report.Summary{Input: report.Input{Lines: 1 << 40, From: &day, To: &to},
		Audit: report.AuditInfo{Spec: "rfc9309", TimeResolution: "1us", Robots: long('r')}}
	f := &report.Findings{Summary: sum, Tool: "crawlaudit test", Generated: day, Limits: lim, Days: days}
	for i := 0; i < lim.Bots+50; i++ {
		row := report.BotRow{Bot: strings.Repeat("B", 256), Host: long('h'), Identity: "unverified", Operator: long('o'), Purpose: long('p'),
			Requests: 1 << 40, Disallowed: 1 << 39, CrawlDelayBreaches: 1 << 30, RequestRateBreaches: 1 << 30, VisitTimeBreaches: 1 << 30,
			DisallowedInGrace: 1 << 30, Unaudited: 1 << 30, IPs: 1 << 30, Verdict: report.VerdictIgnoresRobots}
		sum.Bots = append(sum.Bots, row)
		if i < lim.Bots {
			bf := report.BotFindings{BotRow: row, Requests: vals(), Disallowed: vals(), UserAgentsTotal: 1 << 30}
			for k := 0; k < lim.UserAgents; k++ {
				bf.UserAgents = append(bf.UserAgents, report.Count{Value: long('u'), N: 1 << 40})
			}
			f.Rows = append(f.Rows, bf)
		}
	}
	for i := 0; i < lim.TimelineBots; i++ {
		f.Timeline = append(f.Timeline, report.Series{Label: strings.Repeat("B", 256), Values: vals(), Total: 1 << 40})
	}
	for i := 0; i < 5; i++ {
		f.PerDay = append(f.PerDay, report.Series{Label: "disallowed", Values: vals(), Total: 1 << 40})
	}
	for i := 0; i < lim.Versions; i++ {
		v := report.RobotsVersion{Host: long('h'), Name: long('n'), Number: i + 1, Start: days[i*30], Added: 1 << 20, Removed: 1 << 20, DiffCut: 1 << 20}
		for k := 0; k < lim.DiffLines; k++ {
			v.Diff = append(v.Diff, report.DiffLine{Op: '+', Old: 1 << 20, New: 1 << 20, Text: long('d')})
		}
		f.Versions = append(f.Versions, v)
	}
	f.VersionsTotal = 1 << 20
	for i := 0; i < lim.Rules; i++ {
		r := report.BrokenRule{Host: long('h'), Version: long('n'), Line: 1 << 20, Rule: long('r'), Requests: 1 << 40, BotsTotal: 1 << 20}
		for k := 0; k < lim.RuleBots; k++ {
			r.Bots = append(r.Bots, report.Count{Value: strings.Repeat("B", 256), N: 1 << 40})
		}
		f.Rules = append(f.Rules, r)
	}
	f.RulesTotal = 1 << 20
	for i := 0; i < lim.PathBots; i++ {
		p := report.BotPaths{Label: strings.Repeat("B", 256), Host: long('h'), Disallowed: 1 << 40, PathsTotal: 1 << 30}
		for k := 0; k < lim.Paths; k++ {
			p.Paths = append(p.Paths, report.PathCount{Path: long('/'), N: 1 << 40, Rule: long('r'), Line: 1 << 20})
		}
		f.Paths = append(f.Paths, p)
	}
	f.PathBotsTotal = 1 << 20
	for i := 0; i < lim.Breaches; i++ {
		f.Breaches = append(f.Breaches, report.BreachGroup{Label: strings.Repeat("B", 256), Host: long('h'), Kind: "crawl-delay", Limit: long('l'), Unit: "seconds", N: 1 << 40, Worst: "0.000", Median: "0.000", First: day, Last: to})
	}
	f.BreachesTotal = 1 << 20
	f.Block = report.BlockFindings{Files: []string{"blocklist.txt"}, Kinds: []string{"disallowed"}, Min: 1, Addresses: 1 << 20, Blocks: 1 << 20}
	for i := 0; i < lim.BlockEntries; i++ {
		f.Block.Entries = append(f.Block.Entries, report.BlockEntry{Addr: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", Reasons: "disallowed 1000000, spoofed 1000000, in-grace 1000000",
			Claims: []string{strings.Repeat("B", 256) + " spoofed", strings.Repeat("C", 256) + " spoofed"}, First: day, Last: to})
	}
	f.Headlines = report.Headlines(f)
	return f
}

// TestWorstCaseSize: with every list full of the longest strings the audit
// keeps, over a year, the page stays bounded.
func TestWorstCaseSize(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, worstFindings()); err != nil {
		t.Fatal(err)
	}
	t.Logf("worst case: %d bytes", buf.Len())
	if buf.Len() > 3<<20 {
		t.Errorf("the worst-case page is %d bytes", buf.Len())
	}
}

// TestNoControlOrBidi renders findings whose strings from logs hold
// control and bidirectional characters: html/template leaves them as they
// are, so none may reach the page; each shows as report.Printable writes
// it, as on the terminal.
func TestNoControlOrBidi(t *testing.T) {
	for _, s := range []string{"Evil\u202eBot", "a\x1b[2Jb", "\u2066x\u2069\u200e\u200f\u061c", "line\nbreak\u0085", "\u202a\u202b\u202c\u202d\u2067\u2068"} {
		var buf bytes.Buffer
		if err := Write(&buf, hostileFindings(s)); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		out := buf.String()
		for i, r := range out {
			if r != '\n' && (r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x061c || r == 0x200e || r == 0x200f ||
				r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029) {
				t.Errorf("%q: report.html holds %U at byte %d: %q", s, r, i, out[max(0, i-40):min(len(out), i+40)])
				break
			}
		}
		doc, err := html.Parse(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for n := range doc.Descendants() {
			if n.Type == html.TextNode {
				text.WriteString(n.Data)
			}
		}
		if want := report.Printable(s, 0); !strings.Contains(text.String(), want) {
			t.Errorf("%q: the page's text lacks %q", s, want)
		}
	}
}

// TestOutagesInTimeline: a robots.txt outage is shaded in both charts and
// listed with when and why under them.
func TestOutagesInTimeline(t *testing.T) {
	f := hostileFindings("GPTBot")
	day := f.Days[0]
	to := day.Add(20 * time.Hour)
	f.Summary.RobotsStatus = []report.RobotsPeriod{
		{Host: "www.example.com", Operator: "OpenAI", Kind: report.PeriodUnreachable, From: day.Add(6*time.Hour + 20*time.Minute), To: &to, Status: 503, Requests: 4, Affected: 4},
		{Host: "www.example.com", Operator: "Google", Kind: report.PeriodUnreachable, From: day.Add(10*time.Hour + 55*time.Minute), To: &to, Status: 503},
	}
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, `<g class="band out-unreachable">`); n != 2 {
		t.Errorf("%d shaded outages, want one in each of the 2 charts", n)
	}
	for _, want := range []string{`<h3 id="outages">`, "<th scope=\"row\">503</th>", "2026-10-01 06:20 to 10:55 UTC", "2: OpenAI, Google", "must not crawl"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestCrawlDelayIgnoredNote: the breaches section says Crawl-delay has no
// effect on a crawler whose operator ignores it, and where its operator's
// own control is.
func TestCrawlDelayIgnoredNote(t *testing.T) {
	f := hostileFindings("x")
	f.CrawlDelayIgnored = []report.CrawlDelayNote{{Bot: "Googlebot", Operator: "Google", N: 1216,
		Control: "Search Console (crawl rate)", ControlURL: "https://developers.google.com/search/docs/crawling-indexing/reduce-crawl-rate"}}
	breaches := pageSection(t, f, "breaches")
	for _, want := range []string{
		"Crawl-delay has no effect on Googlebot: Google ignores it; its crawl rate is set in Search Console (crawl rate) (<code>https://developers.google.com/search/docs/crawling-indexing/reduce-crawl-rate</code>).",
		"1,216 of its requests came sooner than Crawl-delay after the one before: counted as crawl_delay_unsupported",
	} {
		if !strings.Contains(breaches, want) {
			t.Errorf("breaches section lacks %q:\n%s", want, breaches)
		}
	}
}

package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rivo/uniseg"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"Googlebot", 0, "Googlebot"},
		{"evil\x1b[31mred", 0, `evil\x1b[31mred`},
		{"tab\there", 0, `tab\there`},
		{"bad\xffutf8", 0, `bad\xffutf8`},
		{"ünïcode", 0, "ünïcode"},
		{"abcdefgh", 5, "abcd…"},
		{"abcde", 5, "abcde"},
		// What the terminal, report.html and report.md show alike.
		{"a\nb\r", 0, `a\nb\r`},
		{"\u0085\u009b\x7f", 0, `\u0085\u009b\x7f`},
		{"file\u202egnp.exe", 0, `file\u202egnp.exe`},
		{"\u202a\u202b\u202c\u202d", 0, `\u202a\u202b\u202c\u202d`},
		{"\u2066x\u2067y\u2068z\u2069", 0, `\u2066x\u2067y\u2068z\u2069`},
		{"\u200e\u200f\u061c", 0, `\u200e\u200f\u061c`},
		{"\u2028\u2029", 0, `\u2028\u2029`},
		{"\ufffd", 0, "\ufffd"},
		{"Яндекс 百度", 0, "Яндекс 百度"},
	}
	for _, tt := range tests {
		if got := Printable(tt.in, tt.max); got != tt.want {
			t.Errorf("Printable(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	s := &Summary{
		Input: Input{Files: 1, Lines: 10, Parsed: 9, Rejected: 1, RejectedReasons: map[string]int64{"bad timestamp": 1},
			From: &from, To: &from, BotRequests: 5, HumanRequests: 4},
		Bots: []BotRow{
			{Bot: "GPTBot", Host: "www.example.com", Identity: IdentityVerified, Operator: "OpenAI", Requests: 5, Disallowed: 2, IPs: 1, Verifiable: true},
			{Bot: "Googlebot", Host: "www.example.com", Identity: IdentitySpoofed, Requests: 7, Disallowed: 3, IPs: 2, Verifiable: true},
			{Bot: "YandexBot", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Yandex", Requests: 2, IPs: 1, Verifiable: true},
			{Bot: "x\tinjected\nline", Host: "www.example.com", Identity: IdentityUnverified, Requests: 1},
		},
		Verification: &Verification{Identities: map[string]int64{IdentityVerified: 5, IdentitySpoofed: 7, IdentityUnverified: 3}},
		Audit:        AuditInfo{Spec: "rfc9309", GraceSeconds: 86400, TimeResolution: "1s", Robots: "testdata"},
	}
	for i := range s.Bots {
		s.Bots[i].Judge()
	}
	var term, tsv bytes.Buffer
	if err := WriteTable(&term, s, TableOptions{Terminal: true, Width: 200}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTable(&tsv, s, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GPTBot", "OpenAI", VerdictIgnoresRobots, "bad timestamp: 1", "resolution of one second",
		"Googlebot (spoofed)", "YandexBot (unverified)", "5 bot requests verified, 7 spoofed, 3 unverified"} {
		if !strings.Contains(term.String(), want) {
			t.Errorf("terminal table lacks %q:\n%s", want, term.String())
		}
	}
	lines := strings.Split(strings.TrimSuffix(tsv.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("TSV has %d lines, want header + 4 rows:\n%s", len(lines), tsv.String())
	}
	for _, l := range lines {
		if n := strings.Count(l, "\t"); n != 17 {
			t.Errorf("TSV line has %d tabs, want 17: %q", n, l)
		}
	}
	// crawl_delay_unsupported is the last column, so the others keep
	// their places.
	if !strings.HasSuffix(lines[0], "\tuser_triggered\tcrawl_delay_unsupported") {
		t.Errorf("TSV header: %q", lines[0])
	}
	// A spoofed row names no operator and is not blamed on the crawler.
	if !strings.Contains(tsv.String(), "Googlebot\twww.example.com\tspoofed\t\t\t7\t0\t3\t") || !strings.Contains(lines[2], "\t"+VerdictSpoofed+"\t") {
		t.Errorf("spoofed TSV row: %q", lines[2])
	}
	for _, l := range strings.Split(term.String(), "\n") {
		if strings.Contains(l, "Googlebot (spoofed)") && strings.Contains(l, VerdictIgnoresRobots) {
			t.Errorf("a spoofed row is called %q: %q", VerdictIgnoresRobots, l)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1174: "1,174", 999999: "999,999",
		1234567: "1,234,567", -1234: "-1,234", -999: "-999", -100000: "-100,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestTableWidths: at 60, 80, 120 and 200 columns, with colour and
// without, no line is wider than the terminal, no row wraps, numbers are
// right-aligned with thousands separators, and no control character from
// a log reaches the terminal (a log's escape sequences could rewrite
// what the user sees).
func TestTableWidths(t *testing.T) {
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	s := &Summary{
		Input: Input{Files: 3, Lines: 1234567, Parsed: 1234560, Rejected: 7, RejectedReasons: map[string]int64{"bad timestamp": 7},
			From: &from, To: &from, BotRequests: 400000, HumanRequests: 834560},
		Bots: []BotRow{
			{Bot: "Bytespider", Host: "www.example.com", Identity: IdentityUnverified, Operator: "ByteDance", Purpose: "ai-training", Requests: 120000, RobotsFetches: 26, Disallowed: 117400, IPs: 4},
			{Bot: "Googlebot", Host: "shop.example.com", Identity: IdentitySpoofed, Purpose: "search", Requests: 1600, Disallowed: 64, IPs: 3, Verifiable: true},
			{Bot: "meta-externalagent", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Meta", Purpose: "ai-training", Requests: 800, RobotsFetches: 29, DisallowedInGrace: 3, IPs: 4, Verifiable: true},
			{Bot: "MJ12bot", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Majestic", Purpose: "seo", Requests: 800, CrawlDelayBreaches: 721, IPs: 3},
			{Bot: "Evil\x1b[2J\x1b]0;owned\x07Bot/1.0 (+http://a-very-long-operator-domain.example/bot.html)", Host: "www.example.com", Identity: IdentityUnverified, Requests: 5},
			{Bot: "百度蜘蛛", Host: "www.example.com", Identity: IdentityUnverified, Requests: 5},
		},
		Audit: AuditInfo{Spec: "rfc9309", GraceSeconds: 86400, Robots: "robots/"},
	}
	for i := range s.Bots {
		s.Bots[i].Judge()
	}
	for _, width := range []int{60, 80, 120, 200} {
		for _, color := range []bool{false, true} {
			var b bytes.Buffer
			if err := WriteTable(&b, s, TableOptions{Terminal: true, Width: width, Color: color, Next: "Next: --out DIR writes summary.json, violations.csv, breaches.csv and the block lists."}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for _, l := range lines {
				plain := ansi.ReplaceAllString(l, "")
				if w := uniseg.StringWidth(plain); w > width {
					t.Errorf("width %d color %v: a line of %d columns: %q", width, color, w, plain)
				}
				if strings.ContainsAny(plain, "\x1b\x07") {
					t.Errorf("width %d: a control character: %q", width, l)
				}
			}
			if color != strings.Contains(out, "\x1b[31mignores") {
				t.Errorf("width %d color %v: the verdict colour is wrong:\n%s", width, color, out)
			}
			// One line per row: the header, six rows, then a blank line.
			if len(lines) < 8 || lines[7] != "" {
				t.Errorf("width %d: a row wrapped or went missing:\n%s", width, out)
			}
			bytespider := ansi.ReplaceAllString(lines[1], "")
			if !strings.HasPrefix(bytespider, "Bytespi") || !strings.Contains(bytespider, "120,000") || !strings.Contains(bytespider, "117,400") {
				t.Errorf("width %d: %q", width, bytespider)
			}
			// Right-aligned: the REQUESTS figures end in the same column.
			head := ansi.ReplaceAllString(lines[0], "")
			end := func(l, v string) int { return uniseg.StringWidth(l[:strings.Index(l, v)+len(v)]) }
			if e1, e2 := end(bytespider, "120,000"), end(ansi.ReplaceAllString(lines[4], ""), " 800"); e1 != e2 {
				t.Errorf("width %d: requests not right-aligned (%d, %d):\n%s\n%s\n%s", width, e1, e2, head, bytespider, lines[4])
			}
			if width >= 200 && (!strings.Contains(out, "ByteDance") || !strings.Contains(out, "ai-training")) {
				t.Errorf("width %d: a column was dropped that fits:\n%s", width, out)
			}
			if width <= 80 && strings.Contains(head, "PURPOSE") {
				t.Errorf("width %d: PURPOSE kept while the table is cut:\n%s", width, out)
			}
		}
	}
}

func TestWriteWhatIf(t *testing.T) {
	rows := []WhatIfRow{
		{Bot: "Googlebot", Host: "www.example.com", Requests: 1200, NewlyDisallowed: 1100, TopPaths: WhatIfPaths{
			NewlyDisallowed: []PathRequests{{Path: "/blog/a-very-long-path-that-does-not-fit-into-the-terminal-at-all/and-goes-on", Requests: 40}}}},
		{Bot: "bingbot", Host: "www.example.com", Requests: 30, NewlyAllowed: 7, TopPaths: WhatIfPaths{
			NewlyAllowed: []PathRequests{{Path: "/search?q=x", Requests: 7}}}},
		{Bot: "curl", Host: "www.example.com", Requests: 3},
	}
	var term strings.Builder
	if err := WriteWhatIf(&term, rows, "proposed.txt", true, 80); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1,100 requests newly disallowed", "Googlebot", "1,100", "/search?q=x", "…"} {
		if !strings.Contains(term.String(), want) {
			t.Errorf("what-if table lacks %q:\n%s", want, term.String())
		}
	}
	for _, l := range strings.Split(term.String(), "\n") {
		if displayWidth(l) > 80 {
			t.Errorf("line wider than 80: %q", l)
		}
	}
	if strings.Contains(term.String(), "curl") {
		t.Errorf("a bot with no change is listed:\n%s", term.String())
	}
	var tsv strings.Builder
	if err := WriteWhatIf(&tsv, rows, "proposed.txt", false, 0); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(tsv.String(), "\n"); got != 4 || !strings.Contains(tsv.String(), "curl\twww.example.com\t3\t0\t0\n") {
		t.Errorf("TSV:\n%s", tsv.String())
	}
}

// TestTableKeepsIdentity: at 60, 80 and 100 columns a row of a spoofed or
// unverified claim shows its marker whatever is cut, and the legend under
// the table explains every abbreviated head and one-word verdict shown.
func TestTableKeepsIdentity(t *testing.T) {
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	s := &Summary{
		Input: Input{Files: 1, Lines: 50000, Parsed: 50000, From: &from, To: &from, BotRequests: 19967},
		Bots: []BotRow{
			{Bot: "Bytespider", Host: "www.example.com", Identity: IdentityUnverified, Operator: "ByteDance", Purpose: "ai-training", Requests: 1200, RobotsFetches: 26, Disallowed: 1168, DisallowedUnreachable: 6, IPs: 4},
			{Bot: "python-requests", Host: "www.example.com", Identity: IdentityUnverified, Purpose: "script", Requests: 320, Disallowed: 109, IPs: 2},
			{Bot: "GPTBot", Host: "www.example.com", Identity: IdentitySpoofed, Purpose: "ai-training", Requests: 120, Disallowed: 85, IPs: 2, Verifiable: true},
			{Bot: "Googlebot", Host: "www.example.com", Identity: IdentitySpoofed, Purpose: "search", Requests: 160, Disallowed: 64, IPs: 3, Verifiable: true},
			{Bot: "meta-externalagent", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Meta", Purpose: "ai-training", Requests: 800, RobotsFetches: 29, DisallowedInGrace: 3, AllowedUnavailable: 3, IPs: 4, Verifiable: true},
			{Bot: "Baiduspider", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Baidu", Requests: 400, RobotsFetches: 30, DisallowedInGrace: 1, IPs: 3, Verifiable: true},
			{Bot: "MJ12bot", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Majestic", Requests: 800, CrawlDelayBreaches: 721, IPs: 3},
			{Bot: "Googlebot-Image", Host: "www.example.com", Identity: IdentityVerified, Operator: "Google", Requests: 800, RobotsFetches: 31, IPs: 3, Verifiable: true},
		},
		Audit: AuditInfo{Spec: "rfc9309", GraceSeconds: 86400, Robots: "robots/"},
	}
	for i := range s.Bots {
		s.Bots[i].Judge()
	}
	legends := map[string]string{"REQS": "requests", "RBTS": "robots.txt fetches", "ROBOTS": "robots.txt fetches", "DISAL": "disallowed",
		"DISALLOWED": "disallowed", "GRACE": "cache grace", "IN GRACE": "cache grace", "UNRCH": "unreachable", "UNREACHABLE": "unreachable",
		"UNAV": "unavailable", "UNAVAILABLE": "unavailable", "DELAY": "Crawl-delay", "RATE": "Request-rate", "VISIT": "Visit-time", "IPS": "addresses"}
	for _, width := range []int{60, 80, 100} {
		var b bytes.Buffer
		if err := WriteTable(&b, s, TableOptions{Terminal: true, Width: width}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		lines := strings.Split(out, "\n")
		for i, r := range s.Bots {
			label := r.Label()
			mark := strings.TrimPrefix(label, r.Bot)
			if mark != "" && width < 80 && !strings.Contains(lines[i+1], mark) {
				mark = mark[:3] + ")" // " (s)": the legend says what it means
				if !strings.Contains(legend(out), strings.TrimSpace(mark)+" "+r.Identity) {
					t.Errorf("width %d: the legend does not explain %q: %s", width, mark, legend(out))
				}
			}
			if !strings.HasPrefix(lines[i+1], label[:2]) || !strings.Contains(lines[i+1], mark) {
				t.Errorf("width %d: the row of %q lost its name or identity: %q", width, label, lines[i+1])
			}
		}
		legend := legend(out)
		for _, head := range strings.Split(regexp.MustCompile(`  +`).ReplaceAllString(strings.TrimSpace(lines[0]), "\t"), "\t") {
			if want, ok := legends[head]; ok && head != "REQUESTS" && !strings.Contains(legend, head) {
				t.Errorf("width %d: the legend does not explain %s (%s): %s", width, head, want, legend)
			}
		}
		if strings.Contains(out, "  ignores\n") && !strings.Contains(legend, "ignores: ignores robots.txt") {
			t.Errorf("width %d: the one-word verdicts are not explained: %s", width, legend)
		}
		if strings.Contains(legend, "RBTS") && !strings.Contains(lines[0], "RBTS") {
			t.Errorf("width %d: the legend explains a head not shown: %s\n%s", width, legend, lines[0])
		}
	}
}

// legend returns the table's legend on one line.
func legend(out string) string {
	return strings.Join(strings.Fields(out[strings.Index(out, "Columns:"):]), " ")
}

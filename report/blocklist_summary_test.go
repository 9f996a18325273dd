package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestHeldBackLines: each held-back crawler in one line with what it did
// and the rule it broke; its own group is called ignored.
func TestHeldBackLines(t *testing.T) {
	b := BlockFindings{Kinds: []string{"disallowed", "spoofed", "crawl-delay"}, HeldBackVerified: 6, HeldBack: []HeldBackCrawler{
		{Bot: "AhrefsBot", Operator: "Ahrefs", Addresses: 5, Requests: map[string]int64{"disallowed": 1250}, Group: "ahrefsbot", Rule: "Disallow: /", Line: 11},
		{Bot: "Googlebot", Operator: "Google", Addresses: 1, Requests: map[string]int64{"disallowed": 107, "crawl-delay": 1}, Group: "*", Rule: "Disallow: /search", Line: 5},
		{Bot: "CCBot", Addresses: 1, Requests: map[string]int64{"crawl-delay": 3}},
	}}
	want := []string{
		"AhrefsBot (Ahrefs): 5 addresses, 1,250 disallowed requests, under its own group ahrefsbot (Disallow: / at line 11), which it ignores",
		"Googlebot (Google): 1 address, 107 disallowed requests, 1 crawl-delay breach, under the * group (Disallow: /search at line 5)",
		"CCBot: 1 address, 3 crawl-delay breaches",
	}
	got := b.HeldBackLines()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("HeldBackLines =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if txt := b.HeldBackText(); !strings.HasPrefix(txt, "Held back: 6 addresses verified") || !strings.Contains(txt, "--block-verified") {
		t.Errorf("HeldBackText = %q", txt)
	}
	if (BlockFindings{}).HeldBackText() != "" || (BlockFindings{}).PredatingText() != "" {
		t.Error("nothing held back or predating must say nothing")
	}
}

// TestPredatingSentence: one sentence, the years of the logs, the
// operators and the first list's date.
func TestPredatingSentence(t *testing.T) {
	for _, tc := range []struct {
		p    Predating
		want string
	}{
		{Predating{Requests: 3, Bots: []string{"Googlebot"}, Operators: []string{"Google"},
			From: time.Date(2015, 5, 17, 0, 0, 0, 0, time.UTC), To: time.Date(2015, 5, 20, 0, 0, 0, 0, time.UTC), FirstList: time.Date(2021, 11, 10, 10, 0, 0, 0, time.UTC)},
			"Identity could not be settled for 3 requests (Googlebot): the logs (2015) predate every published range list of Google (the first of them from 2021-11-10), so they count as unverified, never spoofed."},
		{Predating{Requests: 1, Bots: []string{"bingbot", "AhrefsBot"}, Operators: []string{"Microsoft", "Ahrefs", "Google"},
			From: time.Date(2019, 12, 31, 0, 0, 0, 0, time.UTC), To: time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC), FirstList: time.Date(2026, 4, 11, 0, 0, 0, 0, time.UTC)},
			"Identity could not be settled for 1 request (bingbot, AhrefsBot): the logs (2019–2020) predate every published range list of Microsoft, Ahrefs and Google (the first of them from 2026-04-11), so they count as unverified, never spoofed."},
	} {
		if got := tc.p.Sentence(); got != tc.want {
			t.Errorf("Sentence =\n%s\nwant\n%s", got, tc.want)
		}
	}
}

// TestTableFooterBlocklist: the terminal footer says that old logs' identity
// could not be settled and names the held-back crawlers with the levers.
func TestTableFooterBlocklist(t *testing.T) {
	s := &Summary{
		Bots: []BotRow{{Bot: "Googlebot", Identity: IdentityUnverified, Requests: 3, Verdict: VerdictIgnoresRobots}},
		Verification: &Verification{Identities: map[string]int64{"unverified": 3}, Predating: &Predating{Requests: 3,
			Bots: []string{"Googlebot"}, Operators: []string{"Google"}, From: time.Date(2015, 5, 17, 0, 0, 0, 0, time.UTC),
			To: time.Date(2015, 5, 17, 0, 0, 0, 0, time.UTC), FirstList: time.Date(2021, 11, 10, 0, 0, 0, 0, time.UTC)}},
		Blocklist: &BlocklistSummary{Written: 1, HeldBackVerified: 2, HeldBackCrawlers: []HeldBackCrawler{
			{Bot: "AhrefsBot", Addresses: 2, Requests: map[string]int64{"disallowed": 40}}}},
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, s, TableOptions{Terminal: true, Width: 80}); err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(buf.String()), " ")
	for _, want := range []string{
		"Identity could not be settled for 3 requests (Googlebot): the logs (2015) predate every published range list of Google",
		"Block list: 2 addresses of verified crawlers that broke rules held back: AhrefsBot (40 disallowed requests).",
		"--block-verified",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("footer lacks %q:\n%s", want, buf.String())
		}
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

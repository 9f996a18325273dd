package report

import (
	"strings"
	"testing"
	"time"
)

// TestReactionsWithinLog: a change after the log's last request has no
// reaction to show and is not listed; one within it is.
func TestReactionsWithinLog(t *testing.T) {
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC)
	s := &Summary{Input: Input{From: &from, To: &to}, Changes: []Change{
		{Bot: "GPTBot", At: time.Date(2026, 10, 10, 12, 0, 0, 0, time.UTC)},
		{Bot: "GPTBot", At: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), AddedRules: []string{"Disallow: /x"}},
		{Bot: "ClaudeBot", At: to},
	}}
	rows, total := Reactions(s)
	var got []string
	for _, r := range rows {
		got = append(got, r.Bot+" "+r.At.Format(time.RFC3339))
	}
	want := "GPTBot 2026-10-10T12:00:00Z,ClaudeBot 2026-10-31T23:00:00Z"
	if strings.Join(got, ",") != want || total != 2 {
		t.Errorf("Reactions = %v (%d in all), want %s (2)", got, total, want)
	}
}

// TestHeadlinesDisallowedTotal: the sentences' disallowed requests add up
// to the chart's total, which counts spoofed rows too.
func TestHeadlinesDisallowedTotal(t *testing.T) {
	s := &Summary{Bots: []BotRow{
		{Bot: "Bytespider", Identity: IdentityUnverified, Requests: 1200, Disallowed: 1168, IPs: 4, Verdict: VerdictDisallowed},
		{Bot: "curl", Identity: IdentityUnverified, Requests: 320, Disallowed: 343, IPs: 3, Verdict: VerdictDisallowed},
		{Bot: "GPTBot", Identity: IdentitySpoofed, Requests: 300, Disallowed: 227, IPs: 2, Verdict: VerdictSpoofed},
	}}
	hs := Headlines(&Findings{Summary: s})
	want := []string{
		"1,738 disallowed requests in all: 1,511 by 2 bots that ignored robots.txt, most by Bytespider (1,168) and curl (343); 227 by spoofed User-Agents.",
		"1 User-Agent claim named a crawler whose operator did not send them (spoofed): 300 requests (227 of them disallowed), by GPTBot from 2 addresses.",
	}
	if strings.Join(hs, "\n") != strings.Join(want, "\n") {
		t.Errorf("headlines:\n%s\nwant:\n%s", strings.Join(hs, "\n"), strings.Join(want, "\n"))
	}
	s.Bots = s.Bots[:2]
	if hs := Headlines(&Findings{Summary: s}); !strings.HasPrefix(hs[0], "2 bots ignored robots.txt: 1,511 disallowed requests") {
		t.Errorf("without spoofed rows: %q", hs[0])
	}
}

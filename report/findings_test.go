package report

import (
	"fmt"
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
		{Bot: "Bytespider", Identity: IdentityUnverified, Requests: 1200, Disallowed: 1168, IPs: 4, Verdict: VerdictIgnoresRobots},
		{Bot: "curl", Identity: IdentityUnverified, Requests: 320, Disallowed: 343, IPs: 3, Verdict: VerdictIgnoresRobots},
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

// TestOutages: the sample's two robots.txt outages, a 503 morning and a
// 404 day, from overlapping periods of several operators.
func TestOutages(t *testing.T) {
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	ptr := func(s string) *time.Time { v := at(s); return &v }
	s := &Summary{RobotsStatus: []RobotsPeriod{
		{Host: "www.example.com", Operator: "Ahrefs", Kind: PeriodUnreachable, From: at("2026-10-22T09:28:30Z"), To: ptr("2026-10-22T22:57:30Z"), Status: 503},
		{Host: "www.example.com", Operator: "Ahrefs", Kind: PeriodUnavailable, From: at("2026-10-27T09:01:31Z"), To: ptr("2026-10-28T07:06:42Z"), Status: 404, Requests: 11, Affected: 1},
		{Host: "www.example.com", Operator: "Apple", Kind: PeriodUnreachable, From: at("2026-10-22T06:20:35Z"), To: ptr("2026-10-22T15:07:42Z"), Status: 503},
		{Host: "www.example.com", Operator: "ByteDance", Kind: PeriodUnreachable, From: at("2026-10-22T06:31:34Z"), To: ptr("2026-10-22T18:01:17Z"), Status: 503, Requests: 6, Affected: 6},
		{Host: "www.example.com", Operator: "Majestic", Kind: PeriodUnavailable, From: at("2026-10-28T00:04:56Z"), To: ptr("2026-10-30T08:30:40Z"), Status: 404, Requests: 6},
		{Host: "www.example.com", Operator: "Microsoft", Kind: PeriodUnreachable, From: at("2026-10-22T10:55:46Z"), To: ptr("2026-10-22T11:11:36Z"), Status: 500},
		{Host: "www.example.com", Operator: "Microsoft", Kind: PeriodUnreachable, From: at("2026-10-29T10:00:00Z"), Status: 503},
	}}
	got := Outages(s)
	var lines []string
	for _, o := range got {
		to := "-"
		if o.To != nil {
			to = o.To.Format(time.RFC3339)
		}
		lines = append(lines, fmt.Sprintf("%s %s %s..%s..%s %v %d/%d", o.Kind, o.Answered(), o.From.Format(time.RFC3339), o.LastError.Format(time.RFC3339), to, o.Operators, o.Requests, o.Affected))
	}
	want := []string{
		"unreachable 500, 503 2026-10-22T06:20:35Z..2026-10-22T10:55:46Z..2026-10-22T22:57:30Z [Apple ByteDance Ahrefs Microsoft] 6/6",
		"unavailable 404 2026-10-27T09:01:31Z..2026-10-28T00:04:56Z..2026-10-30T08:30:40Z [Ahrefs Majestic] 17/1",
		"unreachable 503 2026-10-29T10:00:00Z..2026-10-29T10:00:00Z..- [Microsoft] 0/0",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("outages:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

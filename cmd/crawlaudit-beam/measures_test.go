package main

import (
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestMeasureKey checks the counts of a summary row.
func TestMeasureKey(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	k := &keyRows{
		ts:            []int64{t0.Add(2 * time.Second).UnixMicro(), t0.UnixMicro(), t0.Add(time.Hour).UnixMicro(), t0.Add(time.Second).UnixMicro()},
		order:         []int64{0, 0, 1, 0},
		line:          []int64{3, 1, 1, 2},
		verdict:       []string{"disallowed", "allowed", "disallowed_in_grace", "user_triggered"},
		robotsFetch:   []bool{false, true, false, false},
		visitBreach:   []bool{true, false, false, true},
		crawlDelay:    []float64{5, 5, 5, 5},
		hasDelay:      []bool{true, true, true, true},
		delayIgnored:  make([]bool, 4),
		rateN:         make([]int32, 4),
		rateS:         make([]int32, 4),
		hasRate:       make([]bool, 4),
		clientIP:      []string{"192.0.2.1", "192.0.2.1", "", "2001:db8::1"},
		hasIP:         []bool{true, true, false, true},
		operator:      make([]string, 4),
		userTriggered: make([]bool, 4),
		userAgent:     make([]string, 4),
		hasUA:         make([]bool, 4),
		rule:          make([]string, 4),
		hasRule:       make([]bool, 4),
		// A 503 at +1 s (no Retry-After: a 1 s wait), the same page again
		// at +2 s (no back-off) and revalidated at +1 h (304).
		status:      []int32{200, 200, 304, 503},
		bytes:       []int64{100, 200, 0, 512},
		otherMethod: []bool{false, false, false, true},
		url:         []uint64{1, 1, 1, 2},
		waitS:       []int32{-1, -1, -1, -1},
		prefExposed: []bool{false, true, false, false},
	}
	k.userAgent[0], k.hasUA[0] = "MJ12bot/v1.4.8 (http://mj12bot.com/)", true
	r, err := measureKey(botKey{Bot: "MJ12bot", Host: "a.example", Identity: 1}, k)
	if err != nil {
		t.Fatal(err)
	}
	want := report.BotRow{Bot: "MJ12bot", Host: "a.example", Identity: "verified", Requests: 4, RobotsFetches: 1,
		Disallowed: 1, DisallowedInGrace: 1, UserTriggered: 1, VisitTimeBreaches: 2, CrawlDelayBreaches: 2, IPs: 2,
		FirstSeen: t0, LastSeen: t0.Add(time.Hour), Bytes: 812, Status: report.StatusMix{S2xx: 2, S304: 1, S5xx: 1},
		Conduct: report.Conduct{ErrorAnswers: 1, NoBackoff: 1, RepeatFetches: 2, NotModified: 1, OtherMethods: 1, Contact: true}, PrefExposed: 1}
	// URL 1 at 0 s, 2 s and 1 h: gaps of 2 s and 3598 s, median 1800 s.
	if r.Conduct.RefetchHoursMedian == nil || *r.Conduct.RefetchHoursMedian != 0.5 || r.Conduct.NotModifiedShare == nil || *r.Conduct.NotModifiedShare != 0.5 {
		t.Errorf("refetch median %v, not_modified_share %v; want 0.5 and 0.5", r.Conduct.RefetchHoursMedian, r.Conduct.NotModifiedShare)
	}
	r.Conduct.RefetchHoursMedian, r.Conduct.NotModifiedShare = nil, nil
	if r != want {
		t.Errorf("row\n got %+v\nwant %+v", r, want)
	}
	for _, tc := range []struct {
		name string
		key  botKey
		k    *keyRows
	}{
		{"no rows", botKey{Bot: "x"}, &keyRows{}},
		{"ragged", botKey{Bot: "x"}, &keyRows{ts: []int64{1}}},
		{"bad identity", botKey{Bot: "x", Identity: 7}, k},
	} {
		if _, err := measureKey(tc.key, tc.k); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestSortBotRows checks the order of summary.sql.
func TestSortBotRows(t *testing.T) {
	rows := []report.BotRow{
		{Bot: "b", Requests: 5},
		{Bot: "a", Requests: 5, Identity: "spoofed"},
		{Bot: "a", Requests: 5, Identity: "unverified"},
		{Bot: "c", Requests: 1, VisitTimeBreaches: 1},
		{Bot: "d", Requests: 1, DisallowedInGrace: 1},
		{Bot: "e", Requests: 1, DisallowedUnreachable: 2},
		{Bot: "f", Requests: 1, Disallowed: 1},
		{Bot: "a", Host: "x", Requests: 5, Identity: "verified"},
	}
	sortBotRows(rows)
	var got []string
	for _, r := range rows {
		got = append(got, r.Bot+"/"+r.Host+"/"+r.Identity)
	}
	want := "e//,f//,d//,c//,a//unverified,a//spoofed,a/x/verified,b//"
	if strings.Join(got, ",") != want {
		t.Errorf("order %s, want %s", strings.Join(got, ","), want)
	}
}

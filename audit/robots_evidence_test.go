package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/robots/history"
)

// evVersion is a version of a test history: its instant and not_before
// ("" for none).
type evVersion struct{ at, notBefore string }

// evHistory writes a history of host www.example.com in the layout of
// crawlaudit history fetch; no versions: one file for all time.
func evHistory(t *testing.T, vs []evVersion) *history.History {
	t.Helper()
	if len(vs) == 0 {
		h, err := history.FromBytes("robots.txt", []byte("User-agent: *\nDisallow: /private/\n"), history.Options{Host: "www.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	dir := t.TempDir()
	host := filepath.Join(dir, "www.example.com")
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	m := history.Manifest{Host: "www.example.com"}
	for i, v := range vs {
		at := evTime(t, v.at)
		name := at.Format(time.RFC3339) + ".txt"
		if err := os.WriteFile(filepath.Join(host, name), fmt.Appendf(nil, "User-agent: *\nDisallow: /v%d/\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
		mv := history.ManifestVersion{File: name, FirstSeen: at, LastSeen: at}
		if v.notBefore != "" {
			nb := evTime(t, v.notBefore)
			mv.NotBefore = &nb
		}
		m.Versions = append(m.Versions, mv)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(host, history.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := history.Load(dir, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// evTime reads "10-05 12:00" as that instant of October 2026, UTC.
func evTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse("2006-01-02 15:04", "2026-"+s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// TestRobotsEvidence follows the definition of docs/robots-history.md
// ("The logs' own evidence", after the contract's words: a new size of the
// 200 GET /robots.txt answers on a host, seen by at least two operators'
// crawlers, with no version of the history going live between the last
// answer of the old size and the first of the new). Each row is a list of
// answers "operator size time" on www.example.com unless "host:" prefixes
// it, and the evidence wanted as "bytes_before→bytes_after after before".
func TestRobotsEvidence(t *testing.T) {
	for _, c := range []struct {
		name     string
		versions []evVersion
		answers  []string
		want     []string
	}{
		{"a new size seen by two operators, a history for all time", nil,
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			[]string{"500→620 10-01 01:00 10-05 00:00"}},
		{"a new size seen by one operator only: one crawler's odd answer", nil,
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 500 10-05 02:00"},
			nil},
		{"a version goes live in between: the history has the change",
			[]evVersion{{"09-01 00:00", ""}, {"10-03 00:00", ""}},
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			nil},
		{"a version goes live later, its uncertain interval meets the change",
			[]evVersion{{"09-01 00:00", ""}, {"10-06 00:00", "10-04 00:00"}},
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			nil},
		{"a version goes live later, surely after the change",
			[]evVersion{{"09-01 00:00", ""}, {"10-06 00:00", ""}},
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			[]string{"500→620 10-01 01:00 10-05 00:00"}},
		{"a version live at the first new answer itself: the interval is (after, before]",
			[]evVersion{{"09-01 00:00", ""}, {"10-05 00:00", ""}},
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			nil},
		{"a version live at the last old answer: before the interval",
			[]evVersion{{"09-01 00:00", ""}, {"10-01 01:00", ""}},
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			[]string{"500→620 10-01 01:00 10-05 00:00"}},
		{"compressed and plain answers differ from the start: a first sight is no change", nil,
			[]string{"Google 300 10-01 00:00", "Microsoft 1000 10-01 01:00", "Yandex 1000 10-01 02:00", "Google 300 10-02 00:00", "Microsoft 1000 10-02 01:00"},
			nil},
		{"then the file changes: the plain size counts, the compressed one seen by one operator does not", nil,
			[]string{"Google 300 10-01 00:00", "Microsoft 1000 10-01 01:00", "Yandex 1000 10-01 02:00",
				"Google 350 10-05 00:00", "Microsoft 1100 10-05 01:00", "Yandex 1100 10-05 02:00"},
			[]string{"1000→1100 10-01 02:00 10-05 01:00"}},
		{"a return to an earlier size is not a new size", nil,
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00", "Google 620 10-05 00:00", "Microsoft 620 10-05 02:00",
				"Google 500 10-09 00:00", "Microsoft 500 10-09 02:00"},
			[]string{"500→620 10-01 01:00 10-05 00:00"}},
		{"after is the last answer to an operator that got the new size, strictly before", nil,
			[]string{"Microsoft 500 10-01 00:00", "Google 500 10-02 00:00", "Microsoft 620 10-02 00:00", "Yandex 620 10-03 00:00"},
			[]string{"500→620 10-01 00:00 10-02 00:00"}},
		{"the operators that got the new size never asked before it", nil,
			[]string{"Google 500 10-01 00:00", "Microsoft 620 10-05 00:00", "Yandex 620 10-05 02:00"},
			nil},
		{"hosts apart: a size of one host is not new on another", nil,
			[]string{"Google 500 10-01 00:00", "Microsoft 500 10-01 01:00",
				"other.example:Google 620 10-02 00:00", "other.example:Microsoft 620 10-02 01:00",
				"Google 620 10-05 00:00", "Microsoft 620 10-05 02:00"},
			[]string{"500→620 10-01 01:00 10-05 00:00"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			hist := evHistory(t, c.versions)
			var rs []RobotsResponse
			for _, a := range c.answers {
				host := "www.example.com"
				if i := strings.IndexByte(a, ':'); i > 0 && strings.Contains(a[:i], ".") {
					host, a = a[:i], a[i+1:]
				}
				f := strings.Fields(a)
				var n int64
				fmt.Sscan(f[1], &n)
				rs = append(rs, RobotsResponse{Host: host, Operator: f[0], Bytes: n, Time: evTime(t, f[2]+" "+f[3])})
			}
			// The answer does not depend on the order the logs were read in.
			for _, order := range [][]RobotsResponse{rs, reversed(rs)} {
				ev, warns := RobotsEvidence(hist, order)
				var got []string
				for _, e := range ev {
					if e.Host != "www.example.com" {
						continue // other.example has one size only
					}
					got = append(got, fmt.Sprintf("%d→%d %s %s", e.BytesBefore, e.BytesAfter, e.After.Format("01-02 15:04"), e.Before.Format("01-02 15:04")))
				}
				if strings.Join(got, "; ") != strings.Join(c.want, "; ") {
					t.Errorf("evidence %q, want %q", got, c.want)
				}
				if len(warns) != len(ev) {
					t.Errorf("%d warnings for %d changes", len(warns), len(ev))
				}
			}
		})
	}
}

func reversed(rs []RobotsResponse) []RobotsResponse {
	out := make([]RobotsResponse, len(rs))
	for i, r := range rs {
		out[len(rs)-1-i] = r
	}
	return out
}

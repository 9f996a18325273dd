//go:build duckdb_arrow

package audit

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crawlaudit/crawlaudit/report"
)

// TestPrefExposed audits a month whose robots.txt gains Content-Usage:
// train-ai=n on the 16th (the repository's testdata/aipref-month), fully
// and lean, and counts pref_exposed per crawler. Each want is traced to the log and the file:
//
//   - GPTBot (ai-training): after the change /articles/a and /articles/b
//     are refused by train-ai=n (draft-ietf-aipref-vocab-07 §4.1);
//     /press/release-1 is under the longer /press/ train-ai=y
//     (draft-ietf-aipref-attach-05 §3.1: the longest path decides);
//     /private/draft is disallowed, which implies no preference (§3.1) and
//     is counted in disallowed only; /robots.txt never counts. Before the
//     16th nothing was declared.
//   - ClaudeBot (ai-training): both requests after the change.
//   - PerplexityBot (ai-search): its own group's Content-Signal ai-input=no
//     is ai-use=n (draft-romm-aipref-contentsignals-00 §4).
//   - Googlebot (search) and ChatGPT-User (ai-assistant): nothing says
//     search=n or ai-use=n for the * group; the categories are independent.
func TestPrefExposed(t *testing.T) {
	type counts struct{ exposed, disallowed int64 }
	want := map[string]counts{
		"GPTBot verified":        {2, 1},
		"GPTBot spoofed":         {1, 0}, // 192.0.2.66 is none of OpenAI's: counted apart
		"ClaudeBot verified":     {2, 0},
		"PerplexityBot verified": {1, 0},
		"Googlebot verified":     {0, 0},
		"ChatGPT-User verified":  {0, 0},
	}
	for _, lean := range []bool{false, true} {
		cfg := Config{Robots: "../testdata/aipref-month/robots", Lean: lean}
		res, err := Run(context.Background(), cfg, []string{"../testdata/aipref-month/access.log"})
		if err != nil {
			t.Fatal(err)
		}
		if res.lean != lean {
			t.Errorf("lean %v: the audit kept lean %v", lean, res.lean)
		}
		got := map[string]counts{}
		for _, r := range res.Summary.Bots {
			got[r.Bot+" "+r.Identity] = counts{r.PrefExposed, r.Disallowed}
		}
		prefs := res.Summary.Preferences
		res.Close()
		checkDeclared(t, prefs)
		if len(got) != len(want) {
			t.Errorf("lean %v: rows %v, want %v", lean, got, want)
		}
		for row, w := range want {
			if g, ok := got[row]; !ok || g != w {
				t.Errorf("lean %v: %s pref_exposed, disallowed = %v (row found: %v), want %v", lean, row, g, ok, w)
			}
		}
	}
}

// checkDeclared checks summary.json's preferences of testdata/aipref-month:
// only the version of the 16th declares any, three lines with their groups,
// each category read in the Content-Usage vocabulary (Content-Signal's
// ai-input is ai-use).
func checkDeclared(t *testing.T, got []report.PreferenceVersion) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("preferences: %d versions, want 1: %+v", len(got), got)
	}
	v := got[0]
	if v.Host != "www.example.com" || filepath.Base(v.Version) != "2026-10-16T00:00:00Z.txt" || v.From == nil || v.From.Day() != 16 {
		t.Errorf("preferences version %s %s from %v", v.Host, v.Version, v.From)
	}
	want := []report.PreferenceStatement{
		{Directive: "Content-Usage", Group: "*", Value: "train-ai=n", Prefs: map[string]string{"train-ai": "n"}, Line: 4},
		{Directive: "Content-Usage", Group: "*", Path: "/press/", Value: "train-ai=y", Prefs: map[string]string{"train-ai": "y"}, Line: 5},
		{Directive: "Content-Signal", Group: "PerplexityBot", Value: "search=yes, ai-input=no", Prefs: map[string]string{"search": "y", "ai-use": "n"}, Line: 8},
	}
	if !reflect.DeepEqual(v.Statements, want) {
		t.Errorf("statements\n got %+v\nwant %+v", v.Statements, want)
	}
}

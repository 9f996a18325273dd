package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// TestRespect holds respect to the rule of docs/agents.md, one row per
// branch.
func TestRespect(t *testing.T) {
	for _, c := range []struct {
		name    string
		ev      AgentEvidence
		audited int64
		want    string
	}{
		{"nothing judged against a robots.txt version", AgentEvidence{Requests: 5, RobotsFetches: 1}, 0, RespectUnclear},
		{"read robots.txt, broke nothing", AgentEvidence{Requests: 5, RobotsFetches: 1}, 5, RespectYes},
		{"never read robots.txt, broke nothing: may never have met a rule", AgentEvidence{Requests: 5}, 5, RespectUnclear},
		{"read robots.txt, broke some", AgentEvidence{Requests: 5, RobotsFetches: 1, Disallowed: 2}, 5, RespectPartial},
		{"never read robots.txt, broke some", AgentEvidence{Requests: 5, Disallowed: 2}, 5, RespectNo},
		{"exposure is no breach", AgentEvidence{Requests: 5, RobotsFetches: 1, PrefExposed: 4}, 5, RespectYes},
	} {
		if got := respect(c.ev, c.audited); got != c.want {
			t.Errorf("%s: respect %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAgents: the evidence of a verifiable crawler is its verified rows;
// a spoofed row is never its operator's; a crawler seen only unverified
// although it could be verified stays Unclear; scripts have no entry.
func TestAgents(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	s := &Summary{Bots: []BotRow{
		{Bot: "GPTBot", Host: "a", Identity: IdentityVerified, Operator: "OpenAI", Purpose: "ai-training", Requests: 100, RobotsFetches: 3, PrefExposed: 40, FirstSeen: t0, LastSeen: t0.Add(10 * day), Verifiable: true},
		{Bot: "GPTBot", Host: "b", Identity: IdentityVerified, Operator: "OpenAI", Purpose: "ai-training", Requests: 50, RobotsFetches: 1, Disallowed: 5, FirstSeen: t0.Add(day), LastSeen: t0.Add(20 * day), Verifiable: true},
		{Bot: "GPTBot", Host: "a", Identity: IdentityUnverified, Operator: "OpenAI", Purpose: "ai-training", Requests: 50, Disallowed: 50, FirstSeen: t0, LastSeen: t0, Verifiable: true},
		{Bot: "GPTBot", Host: "a", Identity: IdentitySpoofed, Purpose: "ai-training", Requests: 999, Disallowed: 999, FirstSeen: t0, LastSeen: t0},
		{Bot: "ClaudeBot", Host: "a", Identity: IdentityUnverified, Operator: "Anthropic", Purpose: "ai-training", Requests: 10, Disallowed: 10, FirstSeen: t0, LastSeen: t0, Verifiable: true},
		{Bot: "FooBot", Host: "a", Identity: IdentityUnverified, Purpose: "other", Requests: 10, Disallowed: 1, FirstSeen: t0, LastSeen: t0},
		{Bot: "curl", Host: "a", Identity: IdentityUnverified, Purpose: "script", Requests: 10, FirstSeen: t0, LastSeen: t0},
		{Bot: "", Host: "a", Identity: IdentityUnverified, Requests: 10, FirstSeen: t0, LastSeen: t0},
	}}
	got := Agents(s)
	if len(got) != 3 {
		t.Fatalf("%d entries, want GPTBot, ClaudeBot, FooBot: %v", len(got), got)
	}
	g := got["GPTBot"]
	wantEv := AgentEvidence{Requests: 150, VerifiedShare: 0.75, Disallowed: 5, RobotsFetches: 4, PrefExposed: 40, From: t0, To: t0.Add(20 * day)}
	if g.Evidence != wantEv || g.Respect != RespectPartial || g.Operator != "OpenAI" || g.Function != "AI Data Scrapers" {
		t.Errorf("GPTBot %+v\nwant evidence %+v, Partial", g, wantEv)
	}
	if c := got["ClaudeBot"]; c.Respect != RespectUnclear || c.Evidence.Requests != 10 {
		t.Errorf("ClaudeBot seen only unverified: %+v, want Unclear", c)
	}
	if f := got["FooBot"]; f.Respect != RespectNo || f.Operator != "Unclear at this time." {
		t.Errorf("FooBot (no operator to verify, broke a rule, never read robots.txt): %+v, want No", f)
	}
	var buf bytes.Buffer
	if err := WriteAgents(&buf, s); err != nil {
		t.Fatal(err)
	}
	var back map[string]map[string]any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	// robots.json's keys, and the evidence.
	for _, k := range []string{"operator", "respect", "function", "frequency", "description", "evidence"} {
		if _, ok := back["GPTBot"][k]; !ok {
			t.Errorf("agents.json entry lacks %q: %s", k, buf.String())
		}
	}
}

// TestAgentsSigned: evidence.signed counts the evidence's validly signed
// requests (Web Bot Auth) when the log records signatures, never a
// spoofed row's, and is left out of agents.json when it records none
// (docs/agents.md).
func TestAgentsSigned(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	yes, no := true, false
	rows := func(recorded bool) []BotRow {
		r := []BotRow{
			{Bot: "ChatGPT-User", Host: "a", Identity: IdentityVerified, Operator: "OpenAI", Purpose: "ai-assistant", Requests: 40, Signed: 30, FirstSeen: t0, LastSeen: t0, Verifiable: true, Conduct: Conduct{Signs: &yes}},
			{Bot: "ChatGPT-User", Host: "b", Identity: IdentityVerified, Operator: "OpenAI", Purpose: "ai-assistant", Requests: 5, FirstSeen: t0, LastSeen: t0, Verifiable: true, Conduct: Conduct{Signs: &no}},
			{Bot: "ChatGPT-User", Host: "a", Identity: IdentitySpoofed, Purpose: "ai-assistant", Requests: 9, Signed: 9, FirstSeen: t0, LastSeen: t0, Conduct: Conduct{Signs: &yes}},
			{Bot: "MJ12bot", Host: "a", Identity: IdentityUnverified, Operator: "Majestic", Purpose: "seo", Requests: 3, FirstSeen: t0, LastSeen: t0, Conduct: Conduct{Signs: &no}},
		}
		if !recorded {
			for i := range r {
				r[i].Conduct.Signs, r[i].Signed = nil, 0
			}
		}
		return r
	}
	for _, c := range []struct {
		recorded bool
		want     map[string]string // token: evidence.signed as JSON, "" for left out
	}{
		{true, map[string]string{"ChatGPT-User": "30", "MJ12bot": "0"}},
		{false, map[string]string{"ChatGPT-User": "", "MJ12bot": ""}},
	} {
		var buf bytes.Buffer
		if err := WriteAgents(&buf, &Summary{Bots: rows(c.recorded)}); err != nil {
			t.Fatal(err)
		}
		var back map[string]struct{ Evidence map[string]json.RawMessage }
		if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		for token, want := range c.want {
			if got := string(back[token].Evidence["signed"]); got != want {
				t.Errorf("log records signatures %v: %s evidence.signed %q, want %q", c.recorded, token, got, want)
			}
		}
	}
}

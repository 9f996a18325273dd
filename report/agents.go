package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Respect values of Agent, as ai.robots.txt's robots.json writes them.
const (
	RespectYes     = "Yes"
	RespectNo      = "No"
	RespectPartial = "Partial"
	RespectUnclear = "Unclear"
)

// Agent is one entry of agents.json: what the audit saw of one product
// token, in the shape of an entry of ai.robots.txt's robots.json
// (github.com/ai-robots-txt/ai.robots.txt, robots.json: "operator",
// "respect", "function", "frequency", "description") so that the lists
// that read that file can read this one, plus the evidence behind
// "respect". docs/agents.md says how respect follows from the evidence.
type Agent struct {
	Operator    string        `json:"operator"`
	Respect     string        `json:"respect"`
	Function    string        `json:"function"`
	Frequency   string        `json:"frequency"`
	Description string        `json:"description"`
	Evidence    AgentEvidence `json:"evidence"`
}

// AgentEvidence is what respect is read from: the requests the audit
// attributes to the token's operator (verified ones when the operator can
// be verified, else the unverified ones; never a spoofed request).
type AgentEvidence struct {
	Requests int64 `json:"requests"`
	// VerifiedShare is the share of Requests that its operator's ranges
	// or reverse DNS confirmed (0 to 1).
	VerifiedShare float64 `json:"verified_share"`
	// Disallowed counts the requests robots.txt disallowed, those made
	// while it was unreachable included.
	Disallowed    int64 `json:"disallowed"`
	RobotsFetches int64 `json:"robots_fetches"`
	// PrefExposed counts the requests where the AI-use preference in
	// effect refused the token's purpose (never a reason for "No").
	PrefExposed int64 `json:"pref_exposed"`
	// Signed counts the requests with a valid Web Bot Auth signature;
	// nil (left out) when the log records no signature header, which
	// cannot show whether the crawler signs (Conduct.Signs).
	Signed *int64    `json:"signed,omitempty"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
}

// purposeFunctions names a purpose as robots.json's "function" does: the
// categories of its AI entries ("AI Data Scrapers", "AI Search Crawlers",
// "AI Assistants"), and plain words for the others.
var purposeFunctions = map[string]string{
	"search":       "Search Engine Crawlers",
	"ai-training":  "AI Data Scrapers",
	"ai-assistant": "AI Assistants",
	"ai-search":    "AI Search Crawlers",
	"seo":          "SEO Crawlers",
	"archiver":     "Archivers",
	"social":       "Link Preview Fetchers",
	"monitor":      "Monitors",
	"feed":         "Feed Readers",
}

// Agents returns agents.json's entries of s, by product token: every
// named bot of s.Bots but HTTP libraries and scripts (purpose "script",
// which no robots.txt group names), folded rows aside. A token whose
// requests were all spoofed has no entry: nothing was seen of its
// operator.
func Agents(s *Summary) map[string]Agent {
	type acc struct {
		operator, purpose    string
		verifiable           bool
		verified, unverified AgentEvidence
		// The requests of each judged against a robots.txt version.
		auditedVerified, auditedUnverified int64
	}
	by := map[string]*acc{}
	for i := range s.Bots {
		r := &s.Bots[i]
		if r.Bot == "" || r.Purpose == "script" || r.Identity == IdentitySpoofed {
			continue
		}
		a := by[r.Bot]
		if a == nil {
			a = &acc{purpose: r.Purpose}
			by[r.Bot] = a
		}
		if a.operator == "" {
			a.operator = r.Operator
		}
		a.verifiable = a.verifiable || r.Verifiable || r.Identity == IdentityVerified
		e := &a.unverified
		audited := &a.auditedUnverified
		if r.Identity == IdentityVerified {
			e, audited = &a.verified, &a.auditedVerified
		}
		e.add(r)
		*audited += r.Requests - r.Unaudited
	}
	out := make(map[string]Agent, len(by))
	for name, a := range by {
		// The operator's own requests: the verified ones when it can be
		// verified, for an unverified request may be anyone's.
		ev, audited := a.unverified, a.auditedUnverified
		if a.verifiable {
			ev, audited = a.verified, a.auditedVerified
		}
		all := a.verified.Requests + a.unverified.Requests
		if all > 0 {
			ev.VerifiedShare = float64(a.verified.Requests) / float64(all)
		}
		if ev.Requests == 0 {
			// Nothing verified of a verifiable operator: the evidence is
			// the unverified requests, and respect stays unclear.
			ev = a.unverified
			ev.VerifiedShare = 0
			audited = 0
		}
		ag := Agent{Operator: a.operator, Function: purposeFunctions[a.purpose], Evidence: ev,
			Respect: respect(ev, audited)}
		if ag.Operator == "" {
			ag.Operator = "Unclear at this time."
		}
		if ag.Function == "" {
			ag.Function = "Unclear at this time."
		}
		ag.Frequency = frequency(ev)
		ag.Description = describeAgent(name, a.purpose, ev, ag.Respect)
		out[name] = ag
	}
	return out
}

// add counts r into e.
func (e *AgentEvidence) add(r *BotRow) {
	if e.Requests == 0 || r.FirstSeen.Before(e.From) {
		e.From = r.FirstSeen
	}
	if e.Requests == 0 || r.LastSeen.After(e.To) {
		e.To = r.LastSeen
	}
	e.Requests += r.Requests
	e.Disallowed += r.Disallowed + r.DisallowedUnreachable
	e.RobotsFetches += r.RobotsFetches
	e.PrefExposed += r.PrefExposed
	if r.Conduct.Signs != nil {
		if e.Signed == nil {
			e.Signed = new(int64)
		}
		*e.Signed += r.Signed
	}
}

// respect reads robots.json's "respect" from the evidence (docs/agents.md):
// Yes when the crawler fetched /robots.txt and no request broke it; Partial
// when it fetched /robots.txt and some requests broke it; No when requests
// broke it and it never fetched /robots.txt; Unclear when no request was
// judged against a robots.txt version, or when none broke it but it never
// fetched /robots.txt in the period (it may never have met a rule).
func respect(ev AgentEvidence, audited int64) string {
	switch {
	case audited == 0:
		return RespectUnclear
	case ev.Disallowed == 0 && ev.RobotsFetches > 0:
		return RespectYes
	case ev.Disallowed == 0:
		return RespectUnclear
	case ev.RobotsFetches > 0:
		return RespectPartial
	}
	return RespectNo
}

// frequency says how often the crawler came, in robots.json's free words.
func frequency(ev AgentEvidence) string {
	days := ev.To.Sub(ev.From).Hours() / 24
	if days < 1 {
		return requests(ev.Requests) + " within a day."
	}
	f := fmt.Sprintf("%s over %.0f days", requests(ev.Requests), days)
	if perDay := int64(float64(ev.Requests)/days + 0.5); perDay >= 1 {
		f += ", about " + Thousands(perDay) + " a day"
	}
	return f + "."
}

// requests is "1 request" or "12,345 requests".
func requests(n int64) string {
	if n == 1 {
		return "1 request"
	}
	return Thousands(n) + " requests"
}

// describeAgent is the entry's description: what the audit saw.
func describeAgent(name, purpose string, ev AgentEvidence, respect string) string {
	d := fmt.Sprintf("%s (%s) as this site's logs saw it from %s to %s: %s, %.0f%% verified, %s disallowed by robots.txt, /robots.txt fetched %s times",
		name, purpose, ev.From.Format("2006-01-02"), ev.To.Format("2006-01-02"), requests(ev.Requests),
		100*ev.VerifiedShare, Thousands(ev.Disallowed), Thousands(ev.RobotsFetches))
	if ev.PrefExposed > 0 {
		d += fmt.Sprintf(", %s where the site's AI-use preference refused its purpose", requests(ev.PrefExposed))
	}
	return d + "; respect " + respect + "."
}

// WriteAgents writes agents.json: the entries of Agents(s), keyed by
// product token in sorted order, indented as robots.json is.
func WriteAgents(w io.Writer, s *Summary) error {
	b, err := json.MarshalIndent(Agents(s), "", "    ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

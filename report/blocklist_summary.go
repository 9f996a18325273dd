package report

import (
	"fmt"
	"strings"
	"time"
)

// BlocklistSummary is summary.json's "blocklist": how many
// addresses the block list holds, and how many that qualified it left out,
// by cause.
type BlocklistSummary struct {
	// Written is the number of addresses on the list.
	Written int `json:"written"`
	// HeldBackVerified counts addresses that qualified but are verified as
	// their crawler's operator's (never blocked without --block-verified).
	HeldBackVerified int `json:"held_back_verified"`
	// HeldBackAllowList counts those inside --allow-list.
	HeldBackAllowList int `json:"held_back_allow_list"`
	// HeldBackSpecial counts those never blocked for what they are:
	// loopback, unspecified, multicast, broadcast, or not an address at all
	// (a host name in the log's client field).
	HeldBackSpecial int `json:"held_back_special"`
	// HeldBackCrawlers are the verified crawlers behind HeldBackVerified,
	// most requests first.
	HeldBackCrawlers []HeldBackCrawler `json:"held_back_crawlers,omitempty"`
	// Predating counts the written addresses that claimed a crawler whose
	// operator publishes ranges, in logs older than its first list: listed
	// for what they did, unverified, never as impostors.
	Predating int `json:"predating_lists,omitempty"`
}

// HeldBackCrawler is a verified crawler whose addresses qualified for the
// block list but were held back.
type HeldBackCrawler struct {
	Bot      string `json:"bot"`
	Operator string `json:"operator,omitempty"`
	// Addresses is how many of its addresses were held back.
	Addresses int `json:"addresses"`
	// Requests counts their requests per --block-on kind that made them
	// qualify ("disallowed": 107).
	Requests map[string]int64 `json:"requests"`
	// Group and Rule are the robots.txt group and the rule its disallowed
	// requests broke most, with the rule's line ("" and 0: none broken).
	Group string `json:"robots_group,omitempty"`
	Rule  string `json:"rule,omitempty"`
	Line  int    `json:"line,omitempty"`
}

// Findings says what the crawler did, "107 disallowed requests, 12
// crawl-delay breaches", in the order of the kinds given.
func (c HeldBackCrawler) Findings(kinds []string) string {
	var parts []string
	for _, k := range kinds {
		n := c.Requests[k]
		if n == 0 {
			continue
		}
		switch k {
		case "disallowed", "spoofed", "in-grace", "unreachable":
			parts = append(parts, fmt.Sprintf("%s %s %s", Thousands(n), k, plural(int(min(n, 2)), "request", "requests")))
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", Thousands(n), k, plural(int(min(n, 2)), "breach", "breaches")))
		}
	}
	return strings.Join(parts, ", ")
}

// Under says which rule it broke: "under its own group ahrefsbot
// (Disallow: / at line 12), which it ignores" (robots.txt already speaks to
// it by name, so only the other levers remain), or "under the * group
// (...)".
func (c HeldBackCrawler) Under() string {
	if c.Rule == "" {
		return ""
	}
	rule := fmt.Sprintf("%s at line %d", c.Rule, c.Line)
	switch {
	case c.Group == "*":
		return "under the * group (" + rule + ")"
	case c.Group != "":
		return "under its own group " + c.Group + " (" + rule + "), which it ignores"
	}
	return "(" + rule + ")"
}

// HeldBackLevers says what stops a held-back verified crawler, for the
// reports: it is the operator's real crawler, so a block list is the last
// resort, not the first.
const HeldBackLevers = "They are the operators' real crawlers, so the list leaves them out; the levers are robots.txt (a group of their own), the operator's own controls (its webmaster tools or crawl settings), and --block-verified, which lists them too."

// Predating says which bot requests the range lists could not settle
// because every list of the crawler's operator is newer than the requests
// (an address a list did not yet hold is no proof: an old log is never
// called spoofed against a later list).
type Predating struct {
	// Requests counts them; Bots are their crawlers, Operators the
	// operators, in order of requests.
	Requests  int64    `json:"requests"`
	Bots      []string `json:"bots"`
	Operators []string `json:"operators"`
	// From and To span the requests; FirstList is the earliest first list
	// of those operators.
	From      time.Time `json:"from"`
	To        time.Time `json:"to"`
	FirstList time.Time `json:"first_list"`
}

// Sentence says it in one sentence for a person: "Identity could not be
// settled for 4 requests: the logs (2015) predate every published range
// list of Google (the first of them from 2021-11-10), so they count as
// unverified, never spoofed."
func (p *Predating) Sentence() string {
	years := p.From.UTC().Format("2006")
	if y := p.To.UTC().Format("2006"); y != years {
		years += "–" + y
	}
	return fmt.Sprintf("Identity could not be settled for %s %s (%s): the logs (%s) predate every published range list of %s (the first of them from %s), so they count as unverified, never spoofed.",
		Thousands(p.Requests), plural(int(min(p.Requests, 2)), "request", "requests"), strings.Join(p.Bots, ", "),
		years, joinAnd(p.Operators), p.FirstList.UTC().Format("2006-01-02"))
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// HeldBackLines says for each held-back crawler what it did, one plain
// line each (the renderers escape them): "AhrefsBot (Ahrefs): 5 addresses,
// 5 disallowed requests, under its own group ahrefsbot (Disallow: / at
// line 11)".
func (b BlockFindings) HeldBackLines() []string {
	var out []string
	for _, c := range b.HeldBack {
		line := c.Bot
		if c.Operator != "" {
			line += " (" + c.Operator + ")"
		}
		line += ": " + counted(c.Addresses, "address", "addresses")
		if f := c.Findings(b.Kinds); f != "" {
			line += ", " + f
		}
		if u := c.Under(); u != "" {
			line += ", " + u
		}
		out = append(out, line)
	}
	return out
}

// HeldBackText introduces HeldBackLines and says what to do about them
// ("" when nothing was held back).
func (b BlockFindings) HeldBackText() string {
	if b.HeldBackVerified == 0 {
		return ""
	}
	return fmt.Sprintf("Held back: %s verified as their crawler's operator's broke rules but are not on the list. %s",
		counted(b.HeldBackVerified, "address", "addresses"), HeldBackLevers)
}

// PredatingText says that some listed addresses claimed a crawler whose
// operator's lists all postdate the logs ("" when none did).
func (b BlockFindings) PredatingText() string {
	if b.Predating == 0 {
		return ""
	}
	return fmt.Sprintf("Unverified, not impostors: %s on the list claimed a crawler whose operator publishes its ranges today, but the logs predate those lists, so nothing could tell whether they were the operator's; they are listed for what they did (blocklist.csv says \"%s\"), never as spoofed.",
		counted(b.Predating, "address", "addresses"), "unverified (logs predate its published ranges)")
}

// counted writes n with the word for it: "1 address", "5 addresses".
func counted(n int, one, many string) string {
	return Thousands(int64(n)) + " " + plural(n, one, many)
}

// heldBackFooter is the terminal table's line on the held-back verified
// crawlers: "Block list: 5 addresses of verified crawlers that broke rules
// were held back: AhrefsBot (5 disallowed requests). ..." with the levers.
func heldBackFooter(b *BlocklistSummary) string {
	kinds := []string{"disallowed", "spoofed", "in-grace", "crawl-delay", "request-rate", "visit-time", "unreachable"}
	var names []string
	for i, c := range b.HeldBackCrawlers {
		if i == 5 {
			names = append(names, fmt.Sprintf("%d more", len(b.HeldBackCrawlers)-i))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", c.Bot, c.Findings(kinds)))
	}
	return fmt.Sprintf("Block list: %s of verified crawlers that broke rules held back: %s. %s",
		counted(b.HeldBackVerified, "address", "addresses"), strings.Join(names, ", "), HeldBackLevers)
}

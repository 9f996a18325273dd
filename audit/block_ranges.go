package audit

import (
	"cmp"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
	"github.com/crawlaudit/crawlaudit/verify"
)

// firstList is when the range lists of a crawler's operator begin: the
// newest of the first lists of the authoritative sources that cover it
// (before it, some source has no list in effect, and verify.Ranges.Check
// cannot call an address outside the lists spoofed).
type firstList struct {
	at       time.Time
	operator string
}

// firstLists returns, by lower-case crawler name, when its operator's
// published lists begin; crawlers of no authoritative source with a list
// are absent.
func firstLists(r *verify.Ranges) map[string]firstList {
	m := map[string]firstList{}
	if r == nil {
		return m
	}
	for _, s := range r.Sources() {
		if !s.Authoritative || len(s.Versions) == 0 {
			continue
		}
		first := s.Versions[0].Created
		for _, c := range s.Crawlers {
			k := strings.ToLower(c)
			if f, ok := m[k]; !ok || first.After(f.at) {
				m[k] = firstList{at: first, operator: s.Operator}
			}
		}
	}
	return m
}

// predating returns the bot rows left unverified because every one of
// their requests came before their operator's first range list (nil when
// there are none). A row that spans the first list is not counted: some of
// its requests were unverified for another reason.
func predating(rows []report.BotRow, r *verify.Ranges) *report.Predating {
	firsts := firstLists(r)
	var p report.Predating
	perBot := map[string]int64{}
	perOp := map[string]int64{}
	for _, row := range rows {
		if row.Identity != report.IdentityUnverified || row.Requests == 0 {
			continue
		}
		f, ok := firsts[strings.ToLower(row.Bot)]
		if !ok || !row.LastSeen.Before(f.at) {
			continue
		}
		p.Requests += row.Requests
		perBot[row.Bot] += row.Requests
		perOp[f.operator] += row.Requests
		if p.From.IsZero() || row.FirstSeen.Before(p.From) {
			p.From = row.FirstSeen
		}
		if row.LastSeen.After(p.To) {
			p.To = row.LastSeen
		}
		if p.FirstList.IsZero() || f.at.Before(p.FirstList) {
			p.FirstList = f.at
		}
	}
	if p.Requests == 0 {
		return nil
	}
	p.Bots, p.Operators = byCount(perBot), byCount(perOp)
	p.From, p.To, p.FirstList = p.From.UTC(), p.To.UTC(), p.FirstList.UTC()
	return &p
}

// byCount returns the keys of m, largest value first, then by name.
func byCount(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
	return keys
}

// markPredating sets Claim.Predates on the unverified claims of entries
// whose crawler's operator publishes ranges that all began after the
// address's last request, and returns how many entries have one.
func markPredating(entries []firewall.Entry, r *verify.Ranges) int {
	firsts := firstLists(r)
	n := 0
	for i := range entries {
		e := &entries[i]
		has := false
		for k, c := range e.Claims {
			if c.Identity != report.IdentityUnverified {
				continue
			}
			if f, ok := firsts[strings.ToLower(c.Bot)]; ok && !e.LastSeen.IsZero() && e.LastSeen.Before(f.at) {
				if !has {
					// Entries with the same claims share them (claimArena).
					e.Claims = slices.Clone(e.Claims)
				}
				e.Claims[k].Predates = true
				has = true
			}
		}
		if has {
			n++
		}
	}
	return n
}

// protectedRanges returns the published ranges no widened block may
// overlap: every prefix of the authoritative sources' lists from the one
// in effect at from (the logs' start; zero: all) to the newest, except
// those of a source all of whose crawlers are on the list as verified
// (only under --block-verified). Operators' lists derived from an AS are
// left out: they hold the operator's whole network, not its crawlers.
func protectedRanges(r *verify.Ranges, entries []firewall.Entry, from time.Time) []netip.Prefix {
	if r == nil {
		return nil
	}
	listed := map[string]bool{}
	for _, e := range entries {
		for _, c := range e.Claims {
			if c.Identity == report.IdentityVerified {
				listed[strings.ToLower(c.Bot)] = true
			}
		}
	}
	var out []netip.Prefix
	for _, s := range r.Sources() {
		if !s.Authoritative || len(s.Versions) == 0 {
			continue
		}
		all := len(s.Crawlers) > 0
		for _, c := range s.Crawlers {
			all = all && listed[strings.ToLower(c)]
		}
		if all {
			continue
		}
		start := 0
		for i, v := range s.Versions {
			if !from.IsZero() && !v.Created.After(from) {
				start = i
			}
		}
		for _, v := range s.Versions[start:] {
			out = append(out, v.Prefixes()...)
		}
	}
	return out
}

package verify

import (
	"fmt"
	"math"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"time"
)

// Ranges is a set of range sources, each with its history of lists, and
// the crawlers whose operators document reverse DNS instead. It answers
// [Ranges.Check] for a claimed crawler, an address and an instant.
//
// A Ranges is immutable and safe for concurrent use: everything Check
// needs per crawler is computed when the Ranges is built.
type Ranges struct {
	sources []*Source
	dns     []DNSOnly
	plans   map[string]*plan // by lower-case crawler name
	exact   map[string]*plan // by crawler name as sources.json spells it
}

// plan is what Check needs for one crawler.
type plan struct {
	auth    []*Source // the authoritative sources that cover it
	other   []*Source // the other sources that cover it
	domains []string  // documented reverse DNS domains, sorted, distinct
	// changes are the creation instants (Unix µs) of every version of the
	// auth sources, sorted and distinct: the list versions in effect for
	// the crawler change at these instants and only there.
	changes []int64
	usable  bool // some auth source holds a list, or domains exist
}

// SourceInfo describes one source of a Ranges, for summary.json's
// "verification" section and `crawlaudit version`.
type SourceInfo struct {
	Name     string `json:"name"`
	Operator string `json:"operator"`
	URL      string `json:"url"`
	// Versions is the number of lists; First and Last are the creation
	// times of the first and the last (zero when there is none).
	Versions int       `json:"versions"`
	First    time.Time `json:"first,omitzero"`
	Last     time.Time `json:"last,omitzero"`
	// Origin says where the lists come from: "built-in snapshot made
	// 2026-08-21" or the directory they were read from.
	Origin string `json:"origin"`
	// Refused are the lists of a --ranges directory not trusted, with why;
	// Dropped the lists used without some special-purpose entries.
	Refused []ListNote `json:"refused,omitempty"`
	Dropped []ListNote `json:"dropped,omitempty"`
}

// newRanges indexes sources and dns by crawler.
func newRanges(sources []*Source, dns []DNSOnly) *Ranges {
	r := &Ranges{sources: sources, dns: dns, plans: make(map[string]*plan), exact: make(map[string]*plan)}
	get := func(bot string) *plan {
		k := strings.ToLower(bot)
		p := r.plans[k]
		if p == nil {
			p = &plan{}
			r.plans[k] = p
		}
		r.exact[bot] = p
		return p
	}
	for _, s := range sources {
		for _, c := range s.Crawlers {
			p := get(c)
			if s.Authoritative {
				p.auth = append(p.auth, s)
			} else {
				p.other = append(p.other, s)
			}
			p.domains = append(p.domains, s.DNSDomains...)
		}
	}
	for _, d := range dns {
		for _, c := range d.Crawlers {
			p := get(c)
			p.domains = append(p.domains, d.DNSDomains...)
		}
	}
	for _, p := range r.plans {
		for i, d := range p.domains {
			p.domains[i] = strings.ToLower(strings.Trim(d, "."))
		}
		slices.Sort(p.domains)
		p.domains = slices.Clip(slices.Compact(p.domains))
		for _, s := range p.auth {
			for _, v := range s.Versions {
				p.changes = append(p.changes, v.createdUS)
			}
			for _, n := range s.Refused {
				p.changes = append(p.changes, n.createdUS)
			}
			p.usable = p.usable || len(s.Versions) > 0
		}
		slices.Sort(p.changes)
		p.changes = slices.Clip(slices.Compact(p.changes))
		p.usable = p.usable || len(p.domains) > 0
	}
	return r
}

// Empty returns ranges without any source or DNS domain: every check is
// unverified.
func Empty() *Ranges { return newRanges(nil, nil) }

// noPlan is the plan of a crawler that nothing covers.
var noPlan = &plan{}

func (r *Ranges) plan(bot string) *plan {
	if p := r.exact[bot]; p != nil {
		return p
	}
	if p := r.plans[strings.ToLower(bot)]; p != nil {
		return p
	}
	return noPlan
}

// Sources returns the sources, in the order of sources.json. The slice
// and the sources belong to r: do not modify them.
func (r *Ranges) Sources() []*Source { return r.sources }

// Source returns the source of the given name, or nil.
func (r *Ranges) Source(name string) *Source {
	for _, s := range r.sources {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Info describes every source, in the order of sources.json.
func (r *Ranges) Info() []SourceInfo {
	out := make([]SourceInfo, 0, len(r.sources))
	for _, s := range r.sources {
		si := SourceInfo{Name: s.Name, Operator: s.Operator, URL: s.URL, Versions: len(s.Versions), Origin: s.origin,
			Refused: s.Refused, Dropped: s.Dropped}
		if n := len(s.Versions); n > 0 {
			si.First, si.Last = s.Versions[0].Created, s.Versions[n-1].Created
		}
		out = append(out, si)
	}
	return out
}

// Verifiable reports whether anything can settle who made a request of
// bot: an authoritative source that covers it holds a list, or its
// operator documents reverse DNS domains. When it is false, Check gives
// the same Unverified answer for every address and instant.
func (r *Ranges) Verifiable(bot string) bool { return r.plan(bot).usable }

// DNSDomains returns the reverse DNS domains documented for bot (nil when
// none). The slice belongs to r: do not modify it.
func (r *Ranges) DNSDomains(bot string) []string { return r.plan(bot).domains }

// Override returns the ranges of r in which the sources that over holds
// replace r's of the same name; r's other sources stay. A source of over
// without versions (every list of it was refused) keeps r's versions, with
// over's refusals. Neither r nor over is modified.
func (r *Ranges) Override(over *Ranges) *Ranges {
	sources := make([]*Source, 0, len(r.sources)+len(over.sources))
	for _, s := range r.sources {
		if o := over.Source(s.Name); o != nil {
			if len(o.Versions) == 0 && len(s.Versions) > 0 {
				kept := *s
				kept.Refused, kept.Dropped = o.Refused, o.Dropped
				o = &kept
			}
			s = o
		}
		sources = append(sources, s)
	}
	for _, o := range over.sources {
		if r.Source(o.Name) == nil {
			sources = append(sources, o)
		}
	}
	return newRanges(sources, r.dns)
}

// Check says who made a request of bot from addr at atUS (Unix
// microseconds, UTC), from the range lists:
//
//   - Verified when a list in effect at atUS of an authoritative source
//     that covers bot contains addr (Source and Prefix say which).
//   - Spoofed when every authoritative source that covers bot has a list
//     in effect at atUS and none contains addr.
//   - Verified too when atUS is older than a source's first list and that
//     first list contains addr. Operators publish the prefixes they crawl
//     from; in every history at hand a prefix an operator published was
//     its own before (all Googlebot addresses of the 2015 and 2019 logs lie
//     in Google's first list, of 2021). The mistake this can make, sparing
//     an impostor who used an address the operator took over later, only
//     ever spares: it never accuses.
//   - Unverified otherwise: some source has no list in effect yet and its
//     first list does not hold addr (an old log is never called spoofed by
//     a later list: addresses move), no source covers bot (its operator
//     publishes no ranges), or addr is not valid.
//
// Lists derived from an AS (not authoritative) never decide. The list of
// a source in effect at an instant is its newest version created at or
// before it; the last version stays in effect for ever.
//
// From and Until bound the instants around atUS at which the versions in
// effect for bot are the same, so the answer holds for addr over all of
// [From, Until); math.MinInt64 and math.MaxInt64 mean unbounded. DNS is
// set when bot's operator documents reverse DNS domains, the answer is not
// Verified and addr is valid: [ApplyDNS] may then settle it.
//
// Check does not modify r and is safe for concurrent use.
func (r *Ranges) Check(bot string, addr netip.Addr, atUS int64) Check {
	c := Check{From: math.MinInt64, Until: math.MaxInt64}
	p := r.plan(bot)
	switch {
	case len(p.auth) == 0 && len(p.domains) == 0:
		c.Evidence = "no published ranges or reverse DNS for " + bot
		if len(p.other) > 0 {
			c.Evidence += " (the " + strings.ReplaceAll(names(p.other), ",", ", ") + " list is derived from the operator's AS, which settles nothing)"
		}
		return c
	case !p.usable:
		c.Evidence = noListAtHand(p.auth)
		return c
	case !addr.IsValid():
		c.Evidence = "no client address"
		return c
	}
	addr = addr.Unmap()
	c.DNS = len(p.domains) > 0
	if len(p.auth) == 0 {
		c.Evidence = bot + "'s operator publishes no ranges"
		return c
	}
	// The interval of instants over which the versions in effect stay.
	i := sort.Search(len(p.changes), func(i int) bool { return p.changes[i] > atUS })
	if i > 0 {
		c.From = p.changes[i-1]
	}
	if i < len(p.changes) {
		c.Until = p.changes[i]
	}
	// The sources whose list in effect leaves addr out, with that list,
	// and those without a list in effect.
	var outBuf, missBuf [4]*Source
	var listBuf [4]*List
	outside, lists, missing := outBuf[:0], listBuf[:0], missBuf[:0]
	var refused []string
	for _, s := range p.auth {
		l := s.inEffect(atUS)
		if l == nil {
			// Before the source's first list: an address that list
			// holds is verified, one it does not hold is not spoofed
			// (see the doc comment).
			if len(s.Versions) > 0 {
				first := s.Versions[0]
				if pfx, ok := first.Lookup(addr); ok {
					c.Identity, c.Source, c.Prefix, c.DNS = Verified, s.Name, pfx, false
					c.Evidence = "in " + s.Name + " list of " + first.stamp + " (its first, newer than the request): " + pfx.String()
					return c
				}
			}
			missing = append(missing, s)
			continue
		}
		if pfx, ok := l.Lookup(addr); ok {
			c.Identity, c.Source, c.Prefix, c.DNS = Verified, s.Name, pfx, false
			c.Evidence = "in " + s.Name + " list of " + l.stamp + ": " + pfx.String()
			return c
		}
		if n := s.refusedSince(l, atUS); n != nil {
			// The list before a refused one still verifies, but the
			// refused one may have rightly dropped addresses or added
			// this one: nothing accuses until a list is accepted.
			refused = append(refused, "outside the "+s.Name+" list of "+l.stamp+", but its list of "+stamp(n.Created)+" was refused")
			continue
		}
		outside, lists = append(outside, s), append(lists, l)
	}
	if len(missing) == 0 && len(refused) == 0 && len(outside) == 1 {
		c.Identity, c.Source = Spoofed, outside[0].Name
		c.Evidence = "outside the " + outside[0].Name + " list of " + lists[0].stamp
		return c
	}
	var parts []string
	for _, s := range missing {
		if len(s.Versions) == 0 {
			parts = append(parts, "no "+s.Name+" list at hand")
		} else {
			parts = append(parts, "no "+s.Name+" list before "+s.Versions[0].stamp)
		}
	}
	var out []string
	for i, s := range outside {
		out = append(out, "the "+s.Name+" list of "+lists[i].stamp)
	}
	parts = append(parts, refused...)
	if len(missing) == 0 && len(refused) == 0 {
		c.Identity, c.Source = Spoofed, names(outside)
		c.Evidence = "outside " + joinAnd(out)
		return c
	}
	if len(out) > 0 {
		parts = append(parts, "outside "+joinAnd(out))
	}
	c.Evidence = strings.Join(parts, "; ")
	return c
}

// refusedSince returns the newest refused list of s created after l (nil:
// before every version) and at or before atUS, or nil.
func (s *Source) refusedSince(l *List, atUS int64) *ListNote {
	i := sort.Search(len(s.Refused), func(i int) bool { return s.Refused[i].createdUS > atUS })
	if i == 0 {
		return nil
	}
	n := &s.Refused[i-1]
	if l != nil && n.createdUS <= l.createdUS {
		return nil
	}
	return n
}

// inEffect returns the version in effect at atUS, or nil before the
// first.
func (s *Source) inEffect(atUS int64) *List {
	i := sort.Search(len(s.Versions), func(i int) bool { return s.Versions[i].createdUS > atUS })
	if i == 0 {
		return nil
	}
	return s.Versions[i-1]
}

func noListAtHand(ss []*Source) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = "no " + s.Name + " list at hand"
	}
	return strings.Join(parts, "; ")
}

// names joins the names of sources with ",".
func names(ss []*Source) string {
	n := make([]string, len(ss))
	for i, s := range ss {
		n[i] = s.Name
	}
	return strings.Join(n, ",")
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// stamp is how evidence writes an instant.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// String describes the source for a person.
func (s *Source) String() string {
	return fmt.Sprintf("%s (%s, %d versions)", s.Name, s.Operator, len(s.Versions))
}

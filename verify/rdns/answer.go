package rdns

import (
	"net/netip"
	"slices"
	"strings"
	"time"
)

// Answer is what DNS said about one address, kept in the cache.
//
// Names are the PTR names of Addr. Forward holds, for each PTR name that
// was resolved forward and answered, its A and AAAA addresses; a name that
// was answered with NXDOMAIN or with no address has an empty list. A PTR
// name is absent from Forward when its forward lookup failed or was not
// made: [Resolver.Lookup] resolves the first [MaxForward] names (in sorted
// order) that are syntactically host names, and no other.
//
// Err is "" when every query made was answered. Otherwise it is the first
// failure: "nxdomain" (the PTR lookup said the reverse name does not exist,
// which is an answer, not a failure), "timeout", "servfail", "refused",
// another response code in lower case ("notimp", "formerr", …), "canceled",
// a CNAME chain that settles nothing ("cname loop", "cname chain too long",
// "cname chain unresolved"), "over the dns time budget", or the text of a
// network error. When Names is not empty, Err describes a
// forward lookup that failed; the PTR lookup itself was answered.
type Answer struct {
	Addr    netip.Addr              `json:"addr"`
	Names   []string                `json:"ptr,omitempty"`     // PTR names, lower case, no trailing dot, sorted
	Forward map[string][]netip.Addr `json:"forward,omitempty"` // A/AAAA of each PTR name resolved forward (see above)
	Err     string                  `json:"error,omitempty"`   // "" | "nxdomain" | "timeout" | "servfail" | "refused" | other rcode/text
	Time    time.Time               `json:"time"`              // when it was obtained, UTC
	// Checked tells that the resolver that gave the answer had passed its
	// check ([Resolver.CheckHealth]) when it gave it. An answer without a
	// name that no check vouches for (one kept before the check existed)
	// is not evidence: see [Answer.Unvouched].
	Checked bool `json:"checked,omitempty"`
}

// Error strings of [Answer.Err] that the package itself produces.
const (
	ErrNXDomain = "nxdomain"
	ErrTimeout  = "timeout"
	ErrServFail = "servfail"
	ErrRefused  = "refused"
	ErrCanceled = "canceled"
	// ErrCNAMELoop: the CNAME chain of a reply comes back to a name it
	// already passed.
	ErrCNAMELoop = "cname loop"
	// ErrCNAMEChain: the CNAME chain of a reply is longer than a resolver
	// follows for a reverse name.
	ErrCNAMEChain = "cname chain too long"
	// ErrCNAMEUnresolved: the CNAME chain of a reply stops at a name the
	// reply gives neither a record of nor a negative answer for.
	ErrCNAMEUnresolved = "cname chain unresolved"
	// ErrBudget: the lookup did not end within the time budget of
	// [Resolve] (Resolver.Budget).
	ErrBudget = "over the dns time budget"
)

// Usable reports whether the answer is a settled one, worth keeping and
// reusing instead of asking again: every query made was answered (Err is
// "" or "nxdomain"). A failure (timeout, SERVFAIL, REFUSED, …) is not
// usable: [Resolve] asks again when it may query.
//
// An unvouched answer ([Answer.Unvouched]) is not usable either: a
// resolver that says NXDOMAIN to everything gives exactly that answer, and
// asking a checked resolver again settles it.
func (a Answer) Usable() bool {
	return (a.Err == "" || a.Err == ErrNXDomain) && !a.Unvouched()
}

// Unvouched reports whether a is a negative answer without a name (NXDOMAIN,
// or a PTR lookup answered with no name) from a resolver that no check
// vouched for. Such an answer refutes nothing: it is what a broken resolver
// says of every address. An answer with names is never unvouched (a broken
// resolver gives none), nor is a failure (it refutes nothing anyway).
func (a Answer) Unvouched() bool {
	return !a.Checked && len(a.Names) == 0 && (a.Err == "" || a.Err == ErrNXDomain)
}

// Outcome is the verdict of forward-confirmed reverse DNS on one address.
type Outcome uint8

// Outcomes. The zero value is Failed: knowing nothing is never a refutation.
const (
	// Failed: DNS did not answer well enough to tell (timeout, SERVFAIL,
	// REFUSED, a network error, a forward lookup that failed).
	Failed Outcome = iota
	// Confirmed: a PTR name lies under one of the domains and resolves back
	// to the address.
	Confirmed
	// Refuted: DNS answered, and the answer does not confirm the address.
	Refuted
)

// String returns "failed", "confirmed" or "refuted".
func (o Outcome) String() string {
	switch o {
	case Confirmed:
		return "confirmed"
	case Refuted:
		return "refuted"
	}
	return "failed"
}

// Check judges the answer against an operator's domains, and returns the
// deciding PTR name ("" when no name decided).
//
//   - Confirmed, with the confirming name, when some PTR name equals one of
//     domains or ends in "." followed by one (case-insensitive; a domain's
//     leading and trailing dots are ignored) and its forward addresses
//     include Addr (IPv4-mapped addresses are unmapped on both sides).
//   - Refuted when the PTR lookup said NXDOMAIN or answered without a name
//     (name ""), or gave names none of which is under the domains (the
//     first name), or names under them whose forward lookups were all
//     answered and none gives back Addr (the first such name).
//   - Failed when the PTR lookup failed (timeout, SERVFAIL, REFUSED, a
//     network error: name ""), or when no name confirms and some name under
//     the domains has no forward answer (that name). Never Refuted.
//
// A name such as "googlebot.com.evil.net" or "evilgooglebot.com" is not
// under "googlebot.com".
func (a Answer) Check(domains []string) (o Outcome, name string) {
	if len(a.Names) == 0 {
		if a.Err == "" || a.Err == ErrNXDomain {
			return Refuted, ""
		}
		return Failed, ""
	}
	addr := a.Addr.Unmap()
	var refuting, unanswered string
	for _, n := range a.Names {
		n = canonicalName(n)
		if !underAny(n, domains) {
			continue
		}
		fwd, answered := a.Forward[n]
		if !answered {
			if unanswered == "" {
				unanswered = n
			}
			continue
		}
		if slices.ContainsFunc(fwd, func(f netip.Addr) bool { return f.Unmap() == addr }) {
			return Confirmed, n
		}
		if refuting == "" {
			refuting = n
		}
	}
	switch {
	case unanswered != "":
		return Failed, unanswered
	case refuting != "":
		return Refuted, refuting
	}
	return Refuted, canonicalName(a.Names[0])
}

// underAny reports whether the canonical name n equals one of domains or
// lies under it.
func underAny(n string, domains []string) bool {
	for _, d := range domains {
		d = strings.TrimPrefix(canonicalName(d), ".")
		if d == "" {
			continue
		}
		if n == d || (len(n) > len(d) && n[len(n)-len(d)-1] == '.' && strings.HasSuffix(n, d)) {
			return true
		}
	}
	return false
}

// canonicalName is a DNS name in lower case without its trailing dots.
func canonicalName(n string) string {
	return strings.ToLower(strings.TrimRight(n, "."))
}

// normalize puts an answer in the form the cache keeps: Addr unmapped,
// names canonical, sorted and distinct, forward addresses unmapped, sorted
// and distinct under canonical names, empty Names and Forward nil, Time in
// UTC. A normalized answer survives a JSON round trip unchanged.
func (a *Answer) normalize() {
	a.Addr = a.Addr.Unmap()
	if a.Names != nil {
		names := make([]string, 0, len(a.Names))
		for _, n := range a.Names {
			names = append(names, canonicalName(n))
		}
		slices.Sort(names)
		a.Names = slices.Compact(names)
	}
	if a.Forward != nil {
		fwd := make(map[string][]netip.Addr, len(a.Forward))
		for n, addrs := range a.Forward {
			n = canonicalName(n)
			list := fwd[n]
			if list == nil {
				list = []netip.Addr{}
			}
			for _, f := range addrs {
				list = append(list, f.Unmap())
			}
			fwd[n] = list
		}
		for n, list := range fwd {
			slices.SortFunc(list, netip.Addr.Compare)
			fwd[n] = slices.Compact(list)
		}
		a.Forward = fwd
	}
	if len(a.Names) == 0 {
		a.Names = nil // as JSON decodes an omitted "ptr"
	}
	if len(a.Forward) == 0 {
		a.Forward = nil // as JSON decodes an omitted "forward"
	}
	a.Time = a.Time.UTC()
}

// equal reports whether two normalized answers are the same.
func (a Answer) equal(b Answer) bool {
	if a.Addr != b.Addr || a.Err != b.Err || !a.Time.Equal(b.Time) || a.Checked != b.Checked ||
		!slices.Equal(a.Names, b.Names) || len(a.Forward) != len(b.Forward) {
		return false
	}
	for n, fa := range a.Forward {
		fb, ok := b.Forward[n]
		if !ok || !slices.Equal(fa, fb) {
			return false
		}
	}
	return true
}

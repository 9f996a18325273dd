package rdns

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Probe is an address whose reverse DNS name is known before it is asked: a
// crawler address that its operator's published range list proves, or a
// well-known public address ([WellKnown]). A resolver that answers is
// expected to forward-confirm it under Domains.
type Probe struct {
	Addr netip.Addr
	// Domains are the names its PTR name must equal or lie under.
	Domains []string
	// About says, for a person, whose address it is and how that is known
	// ("Googlebot, in the google-common-crawlers list").
	About string
}

// Resolver health statuses (Health.Status).
const (
	HealthOK      = "ok"
	HealthFailing = "failing"
)

// Health is what [Resolver.CheckHealth] found: summary.json's
// verification.rdns.resolver.
type Health struct {
	// Status is HealthOK or HealthFailing.
	Status string `json:"status"`
	// Reason says why a failing resolver failed ("" when ok).
	Reason string `json:"reason,omitempty"`
	// Server is the "host:port" asked ("" when there was none to ask).
	Server string `json:"server,omitempty"`
	// Probes is how many addresses whose names are known were asked, and
	// Confirmed how many of them the resolver forward-confirmed.
	Probes    int `json:"probes"`
	Confirmed int `json:"confirmed"`
}

// OK reports whether the resolver passed its check.
func (h Health) OK() bool { return h.Status == HealthOK }

//go:embed wellknown.json
var wellKnownJSON []byte

// WellKnown returns the well-known public addresses of wellknown.json, in
// its order: addresses whose PTR names their operators publish and have
// kept for years, for checking a resolver when the logs hold too few
// crawler addresses that a published range list proves.
func WellKnown() []Probe {
	var f struct {
		Addresses []struct {
			Addr     netip.Addr `json:"addr"`
			Name     string     `json:"name"`
			Operator string     `json:"operator"`
		} `json:"addresses"`
	}
	if err := json.Unmarshal(wellKnownJSON, &f); err != nil {
		panic("rdns: wellknown.json: " + err.Error()) // embedded: a broken file fails every test
	}
	out := make([]Probe, 0, len(f.Addresses))
	for _, a := range f.Addresses {
		out = append(out, Probe{Addr: a.Addr, Domains: []string{a.Name}, About: a.Name + ", " + a.Operator})
	}
	return out
}

// CheckHealth asks r for every probe, all at once, and says whether r can
// be trusted with a negative answer. It is ok when a majority of the probes
// is forward-confirmed; a resolver that says NXDOMAIN, SERVFAIL, REFUSED or
// nothing for an address whose name is known would say the same of a
// crawler's address, and turn missing data into a refutation. A partly
// failing resolver (half of the probes or more) is failing too: the check
// errs on the side of "unverified", never of "spoofed".
//
// Each probe is bounded by three query timeouts (its PTR, A and AAAA
// queries), by r.Budget and by ctx; no probe is put in any cache. Without
// probes, or without a server to ask, the resolver is failing. Once r
// passes, the answers [Resolver.Lookup] gives are Checked; once it fails,
// no longer.
func (r *Resolver) CheckHealth(ctx context.Context, probes []Probe) Health {
	if r == nil {
		r = &Resolver{}
	}
	r.vouched.Store(false)
	server, why := r.serverAddr()
	h := Health{Status: HealthFailing, Server: server, Probes: len(probes)}
	if why != "" {
		h.Reason = why
		return h
	}
	if len(probes) == 0 {
		h.Reason = "no address whose name is known to check it with"
		return h
	}
	pctx, cancel := context.WithTimeout(ctx, min(r.probeTimeout(), r.budget()))
	defer cancel()
	answers := make([]Answer, len(probes))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Go(func() { answers[i] = r.Lookup(pctx, p.Addr) })
	}
	wg.Wait()
	if ctx.Err() != nil {
		h.Reason = "interrupted"
		return h
	}
	var bad, whats []string
	for i, p := range probes {
		if o, _ := answers[i].Check(p.Domains); o == Confirmed {
			h.Confirmed++
			continue
		}
		what := probeFailure(answers[i], p.Domains)
		whats = append(whats, what)
		bad = append(bad, p.Addr.String()+" ("+p.About+"): "+what)
	}
	if 2*h.Confirmed > len(probes) {
		h.Status = HealthOK
		r.vouched.Store(true)
		return h
	}
	if h.Confirmed == 0 && !slices.ContainsFunc(whats, func(w string) bool { return w != whats[0] }) {
		// The common case, a resolver that gives every query the same
		// failure, in one short sentence.
		all := fmt.Sprintf("all %d addresses whose names are known, such as", len(probes))
		if len(probes) == 1 {
			all = "the one address whose name is known,"
		}
		h.Reason = fmt.Sprintf("%s for %s %s", whats[0], all, strings.TrimSuffix(bad[0], ": "+whats[0]))
		return h
	}
	const shown = 3
	more := ""
	if len(bad) > shown {
		more = " and " + strconv.Itoa(len(bad)-shown) + " more"
		bad = bad[:shown]
	}
	h.Reason = fmt.Sprintf("it confirmed %d of %d addresses whose names are known: %s%s",
		h.Confirmed, len(probes), strings.Join(bad, "; "), more)
	return h
}

// probeFailure says, for a person, what the resolver answered for a probe
// it did not confirm.
func probeFailure(a Answer, domains []string) string {
	o, name := a.Check(domains)
	switch {
	case o == Failed:
		what := a.Err
		switch {
		case what == ErrServFail || what == ErrRefused:
			what = strings.ToUpper(what)
		case what == ErrCanceled || what == ErrTimeout || what == ErrBudget:
			what = "no answer in time"
		case strings.Contains(what, "connection refused"):
			what = "connection refused (nothing listens there)"
		case what == "":
			what = "no answer"
		}
		if name != "" {
			what += " resolving " + name
		}
		return what
	case name == "" && a.Err == ErrNXDomain:
		return "NXDOMAIN"
	case name == "":
		return "no PTR name"
	case underAny(name, domains):
		return "PTR " + name + " does not resolve back"
	}
	return "PTR " + name + ", expected under " + strings.Join(domains, ", ")
}

// probeTimeout bounds CheckHealth: a probe's PTR, A and AAAA queries one
// after the other, and a little slack.
func (r *Resolver) probeTimeout() time.Duration { return 3*r.timeout() + r.timeout()/2 }

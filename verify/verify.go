// Package verify answers who really made a request (contract §10): given the
// crawler a User-Agent claims, the client address and the instant of the
// request, it says whether the crawler's operator vouches for that address
// (verified), disowns it (spoofed), or whether nothing settles it
// (unverified), with the evidence.
//
// The evidence comes from the operators' published IP range lists, each
// with its history (a list is in effect from its creation time until the
// next one), and from forward-confirmed reverse DNS (package verify/rdns)
// for the operators that document their domains. Missing data never makes
// a request spoofed: a request older than a source's first list, a DNS
// timeout, a line without a client address are unverified.
package verify

import (
	"net/netip"
)

// Identity is who made a request, as far as the evidence tells.
type Identity uint8

// Identities. The zero value is Unverified: knowing nothing is never an
// accusation.
const (
	Unverified Identity = iota
	Verified
	Spoofed
)

// String returns "unverified", "verified" or "spoofed", the spelling of
// summary.json and of every report.
func (i Identity) String() string {
	switch i {
	case Verified:
		return "verified"
	case Spoofed:
		return "spoofed"
	}
	return "unverified"
}

// Check is the answer for one claim: a crawler, a client address, an
// instant.
type Check struct {
	Identity Identity
	// Evidence says why, for a person: which list (source and creation
	// time) and prefix, or which PTR name, or what was missing.
	Evidence string
	// Source is the name of the range source that decided (empty when
	// none did).
	Source string
	// Prefix is the prefix of the list that holds the address, when the
	// ranges verified it.
	Prefix netip.Prefix
	// From and Until (Unix microseconds, Until exclusive) bound the
	// instants for which the ranges give the same answer for this crawler
	// and address: the lists in effect do not change between them. A
	// caller may reuse the answer for any instant in [From, Until).
	From, Until int64
	// DNS tells that the crawler's operator documents reverse DNS
	// domains and the ranges did not verify the address: forward-confirmed
	// reverse DNS may still settle it (see ApplyDNS).
	DNS bool
}

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

package robots

import (
	"fmt"
	"strings"
)

// Profile selects one reading of robots.txt: which agent lines form a group,
// how a crawler's group is found, and which rule decides a path. Every
// profile parses the same directives; they differ only in how the rules are
// applied. See the doc comments of each constant for its deviations.
type Profile uint8

const (
	// RFC9309 is the Robots Exclusion Protocol as published in RFC 9309
	// (draft-koster-rep-08, seed 003). It is the default.
	RFC9309 Profile = iota
	// Google is RFC9309 plus what Google's open-source parser accepts in
	// practice (misspelled directives, agent values cut at the first
	// character outside [a-zA-Z_-]), matched as Google's matcher matches:
	// the URL as written against values escaped by Google's rules
	// (MaybeEscapePattern), with no RFC 9309 normalisation.
	Google
	// Koster1996 is "A Method for Web Robots Control" (Internet-Draft, 1996,
	// seed 001): first record whose agent contains the token as a
	// case-insensitive substring, first matching rule in file order wins.
	Koster1996
	// Orig1994 is "A Standard for Robot Exclusion" (1994, seed 004): as
	// Koster1996 but without Allow and without wildcards.
	Orig1994
	// Spc2 is S. Conner's robots.txt 2.0.0 proposal ("Re: robots.txt
	// syntax", 1996, seed 000) on top of Koster1996's records and group
	// choice: a record whose User-agent lines are followed at once by
	// "Robot-version: 2.x.y" with x even is matched by the proposal's
	// rules (explicit Allow, then Disallow, then wildcard Allow; Allow
	// lines without Disallow allow only what they match), an experimental
	// version (x odd) makes the record ignored, and every other record is
	// read as Koster1996 reads it (the proposal's 1.0.0 general matching).
	// See spc2.go.
	Spc2
)

// Profiles lists every profile in the order they are documented.
var Profiles = []Profile{RFC9309, Google, Koster1996, Orig1994, Spc2}

var profileNames = [...]string{
	RFC9309:    "rfc9309",
	Google:     "google",
	Koster1996: "koster1996",
	Orig1994:   "orig1994",
	Spc2:       "spc2",
}

// String returns the profile's name as accepted by --spec.
func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return fmt.Sprintf("Profile(%d)", p)
}

// ParseProfile returns the profile named s (case-insensitive), as given to
// --spec. The empty string selects RFC9309.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return RFC9309, nil
	}
	for i, n := range profileNames {
		if strings.EqualFold(s, n) {
			return Profile(i), nil
		}
	}
	return 0, fmt.Errorf("unknown robots.txt profile %q: use one of rfc9309, google, koster1996, orig1994, spc2", s)
}

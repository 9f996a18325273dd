package robots

import (
	"fmt"
	"strings"
)

// This file holds what the Spc2 profile adds to Koster1996: the
// Robot-version of a record, and the reading it selects. The matching
// itself is in RuleSet (CompileRules with Spc2); the package documentation,
// "The 2.0.0 proposal", gives the whole reading with its sources.

// Unlisted is what RuleSet.Decide returns under Spc2 for a target that no
// rule matches in a set whose Allow lines list everything that may be
// fetched (seed 000, Allow: "If there are no disallow rules, then the robot
// is ONLY allowed to retrieve the URLs that match the explicit and/or
// wildcard/regular expressions given"; Disallow: "Any URL not matching the
// disallow rules have to then pass (any) wild card/regular expression
// rules"). The target is disallowed, by no single line: Resolved.Decide
// reports the group's Robot-version line as the deciding one.
const Unlisted = -2

// Version is a Robot-version value, "major.minor.revision" (seed 000,
// Robot-version).
type Version struct {
	Major, Minor, Revision int
}

// String returns v as "major.minor.revision".
func (v Version) String() string {
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Revision)
}

// Experimental reports whether v is an experimental version: an odd minor
// number, after the Linux kernel's convention that the proposal adopts ("have
// even numbers be 'stable' (or agreed upon) standards, and odd numbers to be
// 'experimental'").
func (v Version) Experimental() bool { return v.Minor%2 == 1 }

// ParseVersion parses a Robot-version value. The proposal writes three
// numbers separated by periods ("2.0.0"); missing trailing parts are read as
// 0 ("2.0" and "2" are 2.0.0), as VIPnytt/RobotsTxtParser's documentation
// (seed 002) writes the versions "1.0" and "2.0". The major number must be 1
// or 2 ("Valid numbers for this part are 1 and 2"); anything else is an
// error.
func ParseVersion(s string) (Version, error) {
	var v Version
	parts := strings.Split(s, ".")
	if s == "" || len(parts) > 3 {
		return v, fmt.Errorf("%q is not a version major.minor.revision", s)
	}
	var nums [3]int
	for i, p := range parts {
		n, ok := atoiBounded(p, 1e6)
		if !ok {
			return v, fmt.Errorf("%q is not a version major.minor.revision", s)
		}
		nums[i] = n
	}
	v = Version{Major: nums[0], Minor: nums[1], Revision: nums[2]}
	if v.Major != 1 && v.Major != 2 {
		return v, fmt.Errorf("%q: the major version must be 1 or 2", s)
	}
	return v, nil
}

// spcReading is how Spc2 reads a record.
type spcReading uint8

const (
	// spcGeneral: the proposal's 1.0.0 reading, Koster1996's: no
	// Robot-version right after the User-agent lines, version 1.x.y (x
	// even), or a value that is no version.
	spcGeneral spcReading = iota
	// spcV2: version 2.x.y with x even: explicit and wildcard matching.
	spcV2
	// spcIgnored: an experimental version (x odd): the record is
	// ignored and the default applies.
	spcIgnored
)

// spcReadingOf returns how Spc2 reads g, and the Robot-version line that
// decided it. Only a Robot-version that is the first line of the record
// after its User-agent lines counts (seed 000: "If the next valid header
// after 'User-agent' is NOT 'Robot-version', then treat the entry as a
// version 1.0.0"; "If it does not immediately follow, or is missing, then
// the robot is to assume the rule set follows the 1.0.0 standard").
// "Valid header" is read as a line with a key the parser knows: comments,
// blank-free unknown lines and misspelt keys are skipped, Sitemap and Host
// belong to no record and are skipped too.
func spcReadingOf(g *Group) (spcReading, Text) {
	if len(g.RobotVersions) == 0 || g.RobotVersions[0].Line != g.firstMember {
		return spcGeneral, Text{}
	}
	t := g.RobotVersions[0]
	v, err := ParseVersion(t.Value)
	switch {
	case err != nil:
		// Not a version: the line is not a valid header, and a robot of
		// either version reads the record as 1.0.0.
		return spcGeneral, t
	case v.Experimental():
		// "A robot, if it comes across an experiment version number,
		// should probably ignore that rule set and use the default."
		return spcIgnored, t
	case v.Major == 2:
		// "if a robot is looking for version 2.0.0 and comes across
		// 2.2.0, then it can still use the rule set".
		return spcV2, t
	}
	// 1.0.0 (or 1.2.0): "A version number of 1.0.0 is allowed."
	return spcGeneral, t
}

// spcClass ranks a rule of a 2.0.0 record (seed 000, Allow and Disallow):
// "explicit allows have a higher precedence than a disallow rule. Disallow
// rules have a higher precedence than wild card/regular expression rules."
// A value is explicit when it holds no "*" (the only wildcard the proposal
// defines), else a wildcard match.
func spcClass(r Rule) uint64 {
	switch {
	case !r.Allow:
		return 2
	case strings.IndexByte(r.Pattern, '*') < 0:
		return 3
	}
	return 1
}

// spcAnchored reports whether a 2.0.0 value, its final "$" removed, must
// match the whole target: every value but one ending in "*". The proposal
// adds the implicit trailing "*" only to 1.0.0 general matches ("General
// matches ... are treated as if they contain the character that matches
// zero or more characters as the last character of the string"), and says
// a general match becomes a wildcard one "by adding a '*' to the end".
func spcAnchored(v string) bool {
	v = strings.TrimSuffix(v, "$")
	return !strings.HasSuffix(v, "*")
}

// spcAllowList reports whether a 2.0.0 set disallows what no rule matches
// (seed 000): with Allow lines and no Disallow ("If there are no disallow
// rules, then the robot is ONLY allowed to retrieve the URLs that match the
// explicit and/or wildcard/regular expressions given"), or with a wildcard
// Allow beside Disallow lines ("Any URL not matching the disallow rules
// have to then pass (any) wild card/regular expression rules"). With
// explicit Allow and Disallow lines only, the proposal leaves the choice
// open ("Discuss."); crawlaudit allows (see the package documentation).
// Empty values match nothing and count for nothing here either.
func spcAllowList(rules []Rule) bool {
	allow, disallow, wild := false, false, false
	for _, r := range rules {
		switch {
		case r.Pattern == "":
		case !r.Allow:
			disallow = true
		case strings.IndexByte(r.Pattern, '*') >= 0:
			allow, wild = true, true
		default:
			allow = true
		}
	}
	return allow && (!disallow || wild)
}

package robots

// Rule is one Allow or Disallow line of a group.
type Rule struct {
	// Allow is true for an Allow line, false for Disallow.
	Allow bool
	// Pattern is the value as written: trimmed, comment removed, not
	// normalised. The empty pattern matches nothing.
	Pattern string
	// Line is the 1-based line of the rule in its robots.txt file.
	Line int
}

// String returns the rule as a robots.txt line, "Allow: /p" or
// "Disallow: /p".
func (r Rule) String() string {
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}

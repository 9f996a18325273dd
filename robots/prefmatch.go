package robots

import "unsafe"

// prefMatcher answers which preferences apply to a path for one resolved
// group. It is built once per group by compilePrefs and is immutable.
//
// How it reads the statements (draft-ietf-aipref-attach-05 §3.1, §3.2):
//
//   - Content-Usage and Content-Signal are two ways of stating
//     preferences, each read on its own; their answers are combined
//     category by category as the vocabulary combines statements from
//     different methods (draft-ietf-aipref-vocab-07 §5.1): n if either
//     says n, else y if either says y, else unset.
//   - Of one directive, the line whose path matches the target with the
//     most octets decides the whole statement, as the longest Allow or
//     Disallow pattern decides (RFC 9309 §2.2.2): categories it does not
//     state are unset for that path even if a broader line states them
//     (lint warns of this, CodePrefShadowed). A line without a path
//     matches every path with length zero. Lines of equal path combine
//     as above (§3.1: "these preferences apply separately").
//   - The group's own lines are more specific than those outside any
//     group: of a group line and a file-level line with the same path,
//     the group line decides (crawlaudit's choice; the draft puts
//     Content-Usage in groups only, the contract adds lines outside any
//     group for all crawlers).
//
// Paths are matched under RFC 9309 whatever the profile the rules are
// read with: the attachment draft defines them by RFC 9309's matching.
type prefMatcher struct {
	byKind [2]prefSet // Content-Usage, Content-Signal
	any    bool
}

// prefSet is the compiled statements of one directive.
type prefSet struct {
	set    *RuleSet      // the distinct paths; nil when every line is path-less
	byRule []Preferences // the combined statement of each path, by rule index
	all    Preferences   // the combined path-less statements
	hasAll bool
	any    bool
}

// compilePrefs compiles the statements of groups (the merged groups of a
// crawler) and of the file (lines outside any group).
func compilePrefs(groups []*Group, file []Statement) prefMatcher {
	var m prefMatcher
	for k, kind := range [2]Kind{KindContentUsage, KindContentSignal} {
		var own, shared []Statement
		for _, g := range groups {
			for _, st := range g.Preferences {
				if st.Kind == kind {
					own = append(own, st)
				}
			}
		}
		for _, st := range file {
			if st.Kind == kind {
				shared = append(shared, st)
			}
		}
		if len(own)+len(shared) == 0 {
			continue
		}
		m.any = true
		m.byKind[k] = buildPrefSet(own, shared)
	}
	return m
}

// buildPrefSet buckets the statements by path, a group's own statements
// replacing the file-level ones of the same path, and compiles the paths.
func buildPrefSet(own, shared []Statement) prefSet {
	s := prefSet{any: true}
	type bucket struct {
		prefs Preferences
		own   bool
	}
	var order []string
	buckets := map[string]*bucket{}
	put := func(st Statement, isOwn bool) {
		b, ok := buckets[st.Path]
		if !ok {
			b = &bucket{own: isOwn}
			buckets[st.Path] = b
			order = append(order, st.Path)
		}
		if b.own && !isOwn {
			return // the group's own line for this path decides
		}
		var p Preferences
		for c, v := range st.Prefs {
			if v != Unset {
				p[c] = Pref{Value: v, Line: st.Line, Kind: st.Kind}
			}
		}
		b.prefs.combine(&p)
	}
	for _, st := range own {
		put(st, true)
	}
	for _, st := range shared {
		put(st, false)
	}
	var rules []Rule
	for _, path := range order {
		b := buckets[path]
		if path == "" {
			s.all, s.hasAll = b.prefs, true
			continue
		}
		rules = append(rules, Rule{Pattern: path})
		s.byRule = append(s.byRule, b.prefs)
	}
	if len(rules) > 0 {
		s.set = CompileRules(rules, RFC9309)
	}
	return s
}

// HasPreferences reports whether any Content-Usage or Content-Signal line
// applies to the group's crawlers (its own lines, or lines outside any
// group).
func (g *Resolved) HasPreferences() bool { return g.prefs.any }

// Preferences returns the AI-use preferences in effect for target (path
// and query as logged, or an absolute URL; see RuleSet.Decide) for the
// group's crawlers, per category, with the line each comes from; see
// prefMatcher for how the lines are read. Whether the target may be
// fetched at all is Decide's business: draft-ietf-aipref-attach-05 §3.1
// implies no preference for a disallowed path, and the caller decides what
// to make of one.
//
// buf is scratch space owned by the caller, returned possibly grown;
// Preferences does not allocate once buf has grown to the longest target.
func (g *Resolved) Preferences(target []byte, buf []byte) (Preferences, []byte) {
	var out Preferences
	if !g.prefs.any {
		return out, buf
	}
	for k := range g.prefs.byKind {
		s := &g.prefs.byKind[k]
		if !s.any {
			continue
		}
		var st *Preferences
		if s.set != nil {
			var i int
			i, buf = s.set.Decide(target, buf)
			if i >= 0 {
				st = &s.byRule[i]
			}
		}
		if st == nil && s.hasAll {
			st = &s.all
		}
		if st != nil {
			out.combine(st)
		}
	}
	return out, buf
}

// PreferencesString is Preferences for a target held in a string, read in
// place.
func (g *Resolved) PreferencesString(target string, buf []byte) (Preferences, []byte) {
	return g.Preferences(unsafe.Slice(unsafe.StringData(target), len(target)), buf)
}

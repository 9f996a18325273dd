package robots

import (
	"fmt"
	"strings"
)

// Category is a category of use that a site states an AI-use preference
// about. The categories are those of draft-ietf-aipref-vocab (train-ai,
// search) plus ai-use, which the contract names and the vocabulary defined
// in its -02 revision; Content-Signal's labels map onto them (see
// signalLabels).
type Category uint8

// The categories, in the order they are reported.
const (
	TrainAI Category = iota // train-ai: training AI models
	AIUse                   // ai-use: using content as input to an AI model (answers, grounding)
	Search                  // search: a search application that links to the content
	// NumCategories is the number of categories.
	NumCategories
)

var categoryLabels = [NumCategories]string{"train-ai", "ai-use", "search"}

// String returns the category's Content-Usage label ("train-ai").
func (c Category) String() string {
	if c < NumCategories {
		return categoryLabels[c]
	}
	return fmt.Sprintf("Category(%d)", c)
}

// PrefValue is a preference for one category: allowed (y), refused (n),
// or unset (the vocabulary's "unknown": nothing was stated, or what was
// stated could not be read).
type PrefValue uint8

// The preference values.
const (
	Unset PrefValue = iota
	Yes
	No
)

// String returns "y", "n" or "" (unset).
func (v PrefValue) String() string {
	switch v {
	case Yes:
		return "y"
	case No:
		return "n"
	}
	return ""
}

// Statement is one Content-Usage or Content-Signal line: its optional path
// and the preferences it states.
type Statement struct {
	Kind Kind // KindContentUsage or KindContentSignal
	// Path is the path pattern the statement is about, matched like an
	// Allow/Disallow pattern; "" when the line has none (every path).
	Path string
	// Value is the statement of preference as written (after the path).
	Value string
	// Prefs are the preferences the line states, per category; all unset
	// when the value is not a valid dictionary.
	Prefs [NumCategories]PrefValue
	Line  int
}

// String returns the statement as a robots.txt line.
func (s Statement) String() string {
	if s.Path != "" {
		return s.Kind.String() + ": " + s.Path + " " + s.Value
	}
	return s.Kind.String() + ": " + s.Value
}

// Pref is the preference in effect for one category of use, and where it
// was stated.
type Pref struct {
	Value PrefValue
	// Line is the line of the statement it comes from, 0 when unset.
	Line int
	// Kind is the directive of that line (KindContentUsage or
	// KindContentSignal), KindUnknown when unset.
	Kind Kind
}

// Preferences are the preferences in effect, indexed by Category.
type Preferences [NumCategories]Pref

// Any reports whether any category has a preference.
func (p *Preferences) Any() bool {
	for _, c := range p {
		if c.Value != Unset {
			return true
		}
	}
	return false
}

// combine merges o into p, category by category, as the vocabulary combines
// several statements (draft-ietf-aipref-vocab-07 §5.1): n if any says n,
// else y if any says y, else unset. Of equal values the first is kept.
func (p *Preferences) combine(o *Preferences) {
	for c := range p {
		if o[c].Value > p[c].Value { // Unset < Yes < No
			p[c] = o[c]
		}
	}
}

// vocabLabels are the Content-Usage labels and their categories.
// draft-ietf-aipref-vocab-07 §6.1 defines train-ai and search; ai-use is
// the label of draft-ietf-aipref-vocab-02 §4.4 ("AI Use") that the contract
// carries from the -08 revision it names.
var vocabLabels = map[string]Category{"train-ai": TrainAI, "ai-use": AIUse, "search": Search}

// signalLabels are Content-Signal's labels (draft-romm-aipref-contentsignals-00
// §4) and the categories they are read as: AI Training as train-ai, AI
// Input (retrieval-augmented generation, grounding) as ai-use, Search as
// search.
var signalLabels = map[string]Category{"ai-train": TrainAI, "ai-input": AIUse, "search": Search}

// signalKnown are Content-Signal keys that are no category but are known,
// so not reported: "use" (reference or full: how far AI systems may use the
// content), which Cloudflare's managed robots.txt writes and its crawl
// endpoint reads
// (https://developers.cloudflare.com/changelog/post/2026-08-31-crawl-content-use/).
var signalKnown = map[string]bool{"use": true}

// obsoleteLabels are Content-Usage labels of earlier drafts of the
// vocabulary, which the current one ignores, with what to write instead.
var obsoleteLabels = map[string]struct{ draft, instead string }{
	"tdm":         {"draft-ietf-aipref-vocab-01", "train-ai, ai-use and search, each for itself"},
	"ai":          {"draft-ietf-aipref-vocab-01", "train-ai"},
	"genai":       {"draft-ietf-aipref-vocab-01", "train-ai"},
	"inference":   {"draft-ietf-aipref-vocab-01", "ai-use"},
	"all":         {"draft-ietf-aipref-vocab-02", "train-ai, ai-use and search, each for itself"},
	"train-genai": {"draft-ietf-aipref-vocab-02", "train-ai"},
	"bots":        {"draft-ietf-aipref-vocab-03", "train-ai, ai-use and search, each for itself"},
	"ai-output":   {"draft-ietf-aipref-vocab-04", "ai-use"},
}

// prefIssue is something wrong with a statement, for lint.
type prefIssue struct {
	sev     Severity
	code    Code
	message string
}

// splitPrefValue splits a Content-Usage value into its path and its
// statement of preference (draft-ietf-aipref-attach-05 §3.2): a value
// that starts with "/" has a path, which ends at the first SP or HTAB;
// any other value is all statement.
func splitPrefValue(v string) (path, stmt string) {
	if v == "" || v[0] != '/' {
		return "", v
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	return v[:i], strings.TrimLeft(v[i:], " \t")
}

// parseStatement reads a Content-Usage or Content-Signal value. It never
// fails: what cannot be read leaves the category unset (the vocabulary's
// "unknown", draft-ietf-aipref-vocab-07 §6.5) and is returned as an issue.
func parseStatement(kind Kind, value string, line int) (Statement, []prefIssue) {
	st := Statement{Kind: kind, Line: line}
	st.Path, st.Value = splitPrefValue(value)
	var issues []prefIssue
	add := func(sev Severity, code Code, format string, args ...any) {
		issues = append(issues, prefIssue{sev, code, fmt.Sprintf(format, args...)})
	}
	members, err := parseSFDictionary(nil, st.Value)
	if err != nil {
		hint := ""
		if strings.HasPrefix(st.Value, "*") || strings.HasPrefix(value, "*") {
			hint = " (a path starts with \"/\")"
		}
		add(Error, CodePrefMalformed, "%s value %s is not a list of label=value (an RFC 9651 dictionary): %v%s: every preference on this line is unknown", kind, quote(st.Value), err, hint)
		return st, issues
	}
	if len(members) == 0 {
		add(Warning, CodePrefEmpty, "%s states no preference: every category is unknown for %s", kind, pathOrAll(st.Path))
		return st, issues
	}
	labels, yes, no := vocabLabels, "y", "n"
	other, otherKind := signalLabels, KindContentSignal
	if kind == KindContentSignal {
		labels, yes, no = signalLabels, "yes", "no"
		other, otherKind = vocabLabels, KindContentUsage
	}
	for i, m := range members {
		c, known := labels[m.key]
		if !known {
			switch o, obsolete := obsoleteLabels[m.key]; {
			case kind == KindContentSignal && signalKnown[m.key]:
			case kind == KindContentUsage && obsolete:
				add(Error, CodePrefObsoleteLabel, "label %q is from an earlier draft (%s) that the current vocabulary replaced: it is ignored; write %s", m.key, o.draft, o.instead)
			default:
				if oc, ok := other[m.key]; ok {
					add(Error, CodePrefUnknownLabel, "label %q is %s's; %s writes %s=%s: ignored as written", m.key, otherKind, kind, labelOf(kind, oc), yesNo(kind, m.token))
				} else {
					add(Warning, CodePrefUnknownLabel, "unknown label %q in %s: ignored (the labels are %s)", m.key, kind, labelList(kind))
				}
			}
			continue
		}
		for _, later := range members[i+1:] {
			if later.key == m.key {
				// RFC 9651 §4.2.2: the last value of a key wins;
				// reported once, at the first.
				add(Warning, CodePrefDuplicateLabel, "label %q appears more than once: the last, %s, applies", m.key, rawOrTrue(later))
				break
			}
		}
		var v PrefValue
		switch {
		case m.kind == sfToken && m.token == yes:
			v = Yes
		case m.kind == sfToken && m.token == no:
			v = No
		default:
			hint := ""
			if kind == KindContentUsage && m.kind == sfToken && (m.token == "yes" || m.token == "no") {
				hint = " (yes and no are Content-Signal's spelling)"
			} else if kind == KindContentSignal && m.kind == sfToken && (m.token == "y" || m.token == "n") {
				hint = " (y and n are Content-Usage's spelling)"
			}
			if later := lastMember(members, m.key); later == i {
				add(Error, CodePrefBadValue, "%s=%s: a preference is %s or %s%s, so %s is unknown", m.key, rawOrTrue(m), yes, no, hint, m.key)
			}
		}
		st.Prefs[c] = v // in order: the last member of a key wins
	}
	return st, issues
}

// lastMember returns the index of the last member with key k.
func lastMember(ms []sfMember, k string) int {
	last := -1
	for i, m := range ms {
		if m.key == k {
			last = i
		}
	}
	return last
}

func rawOrTrue(m sfMember) string {
	if m.raw == "" {
		return "true (no =)"
	}
	return m.raw
}

func pathOrAll(path string) string {
	if path == "" {
		return "every path"
	}
	return quote(path)
}

func labelOf(kind Kind, c Category) string {
	labels := vocabLabels
	if kind == KindContentSignal {
		labels = signalLabels
	}
	for l, lc := range labels {
		if lc == c {
			return l
		}
	}
	return c.String()
}

func labelList(kind Kind) string {
	if kind == KindContentSignal {
		return "ai-train, ai-input, search"
	}
	return "train-ai, ai-use, search"
}

// yesNo translates a y/n or yes/no token into kind's spelling.
func yesNo(kind Kind, tok string) string {
	switch {
	case kind == KindContentUsage && (tok == "yes" || tok == "y"):
		return "y"
	case kind == KindContentUsage && (tok == "no" || tok == "n"):
		return "n"
	case kind == KindContentSignal && (tok == "yes" || tok == "y"):
		return "yes"
	case kind == KindContentSignal && (tok == "no" || tok == "n"):
		return "no"
	}
	return tok
}

// checkShadowed reports, in the parse pass, a line with a path that leaves
// unknown a category a broader line of the same directive states for the
// same crawlers: the longest match decides the whole statement
// (draft-ietf-aipref-attach-05 §3.1), so under the path that category is
// not what the broader line says, which is rarely what the author meant.
// A line that failed to parse is not reported again.
func (p *parser) checkShadowed(groups []*Group) {
	scopes := make([][]Statement, 0, len(groups)+1)
	for _, g := range groups {
		if len(g.Preferences) > 0 {
			scopes = append(scopes, append(append([]Statement(nil), g.Preferences...), p.f.Preferences...))
		}
	}
	if len(p.f.Preferences) > 0 {
		scopes = append(scopes, p.f.Preferences)
	}
	reported := map[int]bool{}
	for _, sts := range scopes {
		for _, s := range sts {
			if s.Path == "" || reported[s.Line] || s.Prefs == ([NumCategories]PrefValue{}) {
				continue
			}
			// Lines of the same path combine (§3.1): what one states,
			// the path has.
			eff := s.Prefs
			for _, o := range sts {
				if o.Kind == s.Kind && o.Path == s.Path {
					for c, v := range o.Prefs {
						if v != Unset {
							eff[c] = v
						}
					}
				}
			}
			for _, b := range sts {
				if b.Kind != s.Kind || b.Line == s.Line || !broader(b.Path, s.Path) {
					continue
				}
				var lost []string
				for c, v := range b.Prefs {
					if v != Unset && eff[c] == Unset {
						lost = append(lost, labelOf(s.Kind, Category(c))+"="+yesNo(s.Kind, v.String()))
					}
				}
				if len(lost) > 0 {
					reported[s.Line] = true
					p.diag(s.Line, Warning, CodePrefShadowed, "under %s this line decides every preference, so what line %d states (%s) does not apply there: add it to this line to keep it",
						quote(s.Path), b.Line, strings.Join(lost, ", "))
					break
				}
			}
		}
	}
}

// broader reports whether pattern b matches every path pattern s matches,
// as far as a plain prefix can tell: b is empty (every path) or a prefix of
// s without wildcards, and shorter.
func broader(b, s string) bool {
	if b == "" {
		return true
	}
	return len(b) < len(s) && strings.HasPrefix(s, b) && !strings.ContainsAny(b, "*$")
}

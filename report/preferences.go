package report

import (
	"strings"
	"time"
)

// PreferenceVersion is one entry of summary.json's "preferences": the
// Content-Usage and Content-Signal lines of one robots.txt version of a
// host, as declared. A version that declares none has no entry.
type PreferenceVersion struct {
	Host    string `json:"host"`
	Version string `json:"version"`
	// From is when the version went live (null: in effect for all time).
	From       *time.Time            `json:"from"`
	Statements []PreferenceStatement `json:"statements"`
}

// PreferenceStatement is one Content-Usage or Content-Signal line.
type PreferenceStatement struct {
	Directive string `json:"directive"` // "Content-Usage" or "Content-Signal"
	// Group is the User-agent values of the group the line is in, joined
	// by ", "; empty for a line before any group, which applies to every
	// crawler.
	Group string `json:"group,omitempty"`
	// Path is the path the line is about; empty for every path.
	Path  string `json:"path,omitempty"`
	Value string `json:"value"` // the statement as written
	// Prefs are the categories the line states and their values
	// ("train-ai": "n"), in the Content-Usage vocabulary; empty when the
	// value could not be read (lint says why).
	Prefs map[string]string `json:"prefs"`
	Line  int               `json:"line"`
}

// Stated returns the categories the line states, in the order of the
// vocabulary ("train-ai=n, search=y"), or "nothing readable".
func (s PreferenceStatement) Stated() string {
	var parts []string
	for _, c := range []string{"train-ai", "ai-use", "search"} {
		if v, ok := s.Prefs[c]; ok {
			parts = append(parts, c+"="+v)
		}
	}
	if len(parts) == 0 {
		return "nothing readable"
	}
	return strings.Join(parts, ", ")
}

// Scope says whom and what the line is about: its group ("every crawler"
// outside any) and its path ("every path" without one).
func (s PreferenceStatement) Scope() string {
	who := "every crawler"
	if s.Group != "" {
		who = "User-agent: " + s.Group
	}
	where := "every path"
	if s.Path != "" {
		where = s.Path
	}
	return who + ", " + where
}

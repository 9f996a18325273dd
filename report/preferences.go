package report

import "time"

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

package verify

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// sourcesJSON is the table of range sources: which operator publishes
// which list where, for which crawlers, with which reverse DNS domains.
//
//go:embed sources.json
var sourcesJSON []byte

// Formats of the files that operators publish (Source.Format).
const (
	// FormatPrefixes is the shape of Google, Bing, OpenAI, Apple,
	// Anthropic, Perplexity, Common Crawl and DuckDuckGo (see
	// [ParsePrefixes]).
	FormatPrefixes = "prefixes"
	// FormatAhrefs is the shape of Ahrefs' crawler API (see
	// [ParseAhrefs]), which carries no creation time.
	FormatAhrefs = "ahrefs"
)

// Source is one published range list with its history.
type Source struct {
	// Name is the source's name in sources.json, and the directory of its
	// files under `crawlaudit ranges update --dir DIR` and --ranges DIR.
	Name string
	// Operator runs the crawlers the list covers.
	Operator string
	// URL is where the operator publishes the list; Doc the operator's
	// page that says which crawlers the list covers.
	URL, Doc string
	// Crawlers are the bots the list covers, as package bots names
	// them; they are matched case-insensitively.
	Crawlers []string
	// DNSDomains are the reverse DNS domains the operator documents for
	// these crawlers (empty when it documents none).
	DNSDomains []string
	// Authoritative is false for a list that the operator did not publish
	// (derived from its AS): such a list never verifies nor spoofs.
	Authoritative bool
	// Format is the shape of the file at URL: FormatPrefixes,
	// FormatAhrefs, or "" when no machine-readable shape is established
	// (then [Update] skips the source, and --ranges files for it must be
	// in the FormatPrefixes shape).
	Format string
	// Versions are the lists, by ascending Created; consecutive versions
	// never hold the same prefix set.
	Versions []*List
	// Refused are the lists of a --ranges directory that were not trusted
	// (see LoadDir), by creation time. From the creation time of a refused
	// list until the next accepted one, an address outside the list in
	// effect is unverified, not spoofed.
	Refused []ListNote
	// Dropped are the accepted lists of a --ranges directory whose
	// special-purpose entries were dropped, with those entries.
	Dropped []ListNote

	origin string // where the versions come from (SourceInfo.Origin)
}

// DNSOnly is a set of crawlers whose operator documents reverse DNS
// domains and publishes no range list.
type DNSOnly struct {
	Operator   string   `json:"operator"`
	Doc        string   `json:"doc"`
	Crawlers   []string `json:"crawlers"`
	DNSDomains []string `json:"dns_domains"`
}

// tableEntry is one source of sources.json.
type tableEntry struct {
	Name          string   `json:"name"`
	Operator      string   `json:"operator"`
	URL           string   `json:"url"`
	Doc           string   `json:"doc"`
	Crawlers      []string `json:"crawlers"`
	DNSDomains    []string `json:"dns_domains"`
	Authoritative bool     `json:"authoritative"`
	Format        string   `json:"format"`
}

// sourceTable is sources.json, decoded.
type sourceTable struct {
	Checked string       `json:"checked"`
	Sources []tableEntry `json:"sources"`
	DNS     []DNSOnly    `json:"dns"`
}

// table returns sources.json, decoded and checked once.
var table = sync.OnceValues(func() (*sourceTable, error) {
	var t sourceTable
	if err := json.Unmarshal(sourcesJSON, &t); err != nil {
		return nil, fmt.Errorf("verify: sources.json: %w", err)
	}
	seen := make(map[string]bool)
	for _, e := range t.Sources {
		switch {
		case e.Name == "" || strings.ContainsAny(e.Name, `/\.: `) || e.Name != strings.ToLower(e.Name):
			return nil, fmt.Errorf("verify: sources.json: bad source name %q", e.Name)
		case seen[e.Name]:
			return nil, fmt.Errorf("verify: sources.json: source %q twice", e.Name)
		case e.Format != "" && e.Format != FormatPrefixes && e.Format != FormatAhrefs:
			return nil, fmt.Errorf("verify: sources.json: source %q: unknown format %q", e.Name, e.Format)
		case len(e.Crawlers) == 0:
			return nil, fmt.Errorf("verify: sources.json: source %q covers no crawler", e.Name)
		}
		seen[e.Name] = true
	}
	return &t, nil
})

// newSource returns the source of a table entry, without versions.
func newSource(e tableEntry) *Source {
	return &Source{
		Name: e.Name, Operator: e.Operator, URL: e.URL, Doc: e.Doc,
		Crawlers:      slices.Clone(e.Crawlers),
		DNSDomains:    slices.Clone(e.DNSDomains),
		Authoritative: e.Authoritative,
		Format:        e.Format,
	}
}

// SourceNames returns the names of the sources of sources.json, in its
// order: the directories that --ranges DIR and `ranges update` know.
func SourceNames() []string {
	t, err := table()
	if err != nil {
		return nil
	}
	names := make([]string, len(t.Sources))
	for i, e := range t.Sources {
		names[i] = e.Name
	}
	return names
}

// setVersions sorts lists by creation time, drops each list whose prefix
// set equals its predecessor's, and makes them the source's versions. Two
// different lists with the same creation time are an error.
func (s *Source) setVersions(lists []*List, what func(*List) string) error {
	slices.SortStableFunc(lists, func(a, b *List) int { return a.Created.Compare(b.Created) })
	out := lists[:0]
	for _, l := range lists {
		if n := len(out); n > 0 {
			last := out[n-1]
			if last.samePrefixes(l) {
				continue
			}
			if last.Created.Equal(l.Created) {
				return fmt.Errorf("%s and %s: two different %s lists created at %s", what(last), what(l), s.Name, l.Created.Format(time.RFC3339Nano))
			}
		}
		out = append(out, l)
	}
	s.Versions = slices.Clip(out)
	return nil
}

// ParseFile parses a file of the given format (a Source.Format; "" is
// taken as FormatPrefixes). fileTime dates a list whose format carries no
// creation time (FormatAhrefs). name is the file or URL, for the errors.
func ParseFile(format, name string, data []byte, fileTime time.Time) (*List, error) {
	switch format {
	case FormatPrefixes, "":
		return ParsePrefixes(name, data)
	case FormatAhrefs:
		if fileTime.IsZero() {
			return nil, &ParseError{File: name, Err: fmt.Errorf("%w: the file carries none and none was given", ErrCreationTime)}
		}
		return ParseAhrefs(name, data, fileTime)
	}
	return nil, fmt.Errorf("%s: unknown range list format %q", name, format)
}

// hasCreationTime reports whether files of the format carry their
// creation time.
func hasCreationTime(format string) bool { return format != FormatAhrefs }

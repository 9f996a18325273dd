package history

import "slices"

// Snapshot is a loaded History as plain data (it marshals to JSON), for a
// program that loads a history once and hands it to workers that cannot
// read its source: crawlaudit-beam's workers on other machines, or in
// processes that do not share the launcher's directory or git.
type Snapshot struct {
	// Source is the src the history was loaded from, as given.
	Source string `json:"source"`
	// Versions are the versions as loaded (History.All).
	Versions []Version `json:"versions"`
	// Warnings are the history's warnings (History.Warnings).
	Warnings []string `json:"warnings,omitempty"`
	// Named: the hosts come from the source (a directory per host), not
	// from Options.Host.
	Named bool `json:"named,omitempty"`
}

// Snapshot returns the history as plain data; FromSnapshot with the same
// Options rebuilds it.
func (h *History) Snapshot() Snapshot {
	return Snapshot{Source: h.src, Versions: slices.Clone(h.all), Warnings: slices.Clone(h.warnings), Named: h.named}
}

// FromSnapshot rebuilds the history s was taken of; opt must be the
// Options it was loaded with.
func FromSnapshot(s Snapshot, opt Options) (*History, error) {
	vs := slices.Clone(s.Versions)
	for i := range vs {
		// JSON gives back the instant in a location of its own; Load's are UTC.
		vs[i].Start = vs[i].Start.UTC()
	}
	return build(s.Source, vs, slices.Clone(s.Warnings), s.Named, opt)
}

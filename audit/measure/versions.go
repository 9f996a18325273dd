package measure

import "time"

// ChangeWindow is how far around a robots.txt change a bot must have been
// active to be followed, and how long after it its reaction is looked for
// (INTERVAL 30 DAY in queries/changes_agents.sql, under the time zone UTC).
const ChangeWindow = 30 * 24 * time.Hour

// VersionChange is a change of a host's robots.txt: its version K (K ≥ 1)
// took over from version K−1.
type VersionChange struct {
	K  int
	At time.Time // when version K began, UTC
	// Until ends the window in which the reaction is looked for: At +
	// ChangeWindow, or the next change if sooner.
	Until time.Time
	// From and To (Unix µs, both included) bound the requests that make a
	// bot active around the change: At ∓ ChangeWindow.
	From, To int64
}

// VersionChanges returns the changes of a host whose versions began at
// starts (in order), with their windows.
func VersionChanges(starts []time.Time) []VersionChange {
	var out []VersionChange
	for k := 1; k < len(starts); k++ {
		at := starts[k].UTC()
		until := at.Add(ChangeWindow)
		if k+1 < len(starts) && starts[k+1].Before(until) {
			until = starts[k+1].UTC()
		}
		out = append(out, NewVersionChange(k, at, until))
	}
	return out
}

// NewVersionChange returns the change to version k at at, whose reaction
// is looked for until until.
func NewVersionChange(k int, at, until time.Time) VersionChange {
	return VersionChange{K: k, At: at.UTC(), Until: until.UTC(),
		From: at.Add(-ChangeWindow).UnixMicro(), To: at.Add(ChangeWindow).UnixMicro()}
}

// Active reports whether a request at us makes its bot active around c.
func (c *VersionChange) Active(us int64) bool { return us >= c.From && us <= c.To }

// InWindow reports whether a request at us is in the window after c, where
// its reaction is looked for: [At, Until).
func (c *VersionChange) InWindow(us int64) bool {
	return us >= c.At.UnixMicro() && us < c.Until.UnixMicro()
}

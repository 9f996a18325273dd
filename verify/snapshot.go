package verify

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"sync"
	"time"
)

// The built-in snapshot of the published range lists with their history,
// regenerated from ../shared/data/ip-ranges by the generator the project
// keeps (see verify/internal/snapgen).
//
//go:generate go run ./internal/snapgen -data ../../shared/data/ip-ranges -o snapshot.json.gz
//go:embed snapshot.json.gz
var snapshotGz []byte

// SnapshotFormat names the layout of snapshot.json.gz.
const SnapshotFormat = "crawlaudit-ranges-snapshot/1"

// snapshotFile is the layout of snapshot.json.gz (gzipped JSON): for each
// source, its versions, each given by the prefixes added to and removed
// from the one before (the first one adds all of its prefixes).
type snapshotFile struct {
	Format string    `json:"format"`
	Made   time.Time `json:"made"` // the newest instant in the inputs
	// Generator is the command that wrote the file; Inputs are the files
	// it read, with their provenance.
	Generator string           `json:"generator"`
	Inputs    []SnapshotInput  `json:"inputs"`
	Sources   []snapshotSource `json:"sources"`
}

// SnapshotInput is one input of the built-in snapshot.
type SnapshotInput struct {
	// Path is relative to the data directory (../shared/data/ip-ranges).
	Path string `json:"path"`
	// Files is the number of files read, for a directory.
	Files int `json:"files,omitempty"`
	// SHA256 is the digest of the file, or for a directory of the
	// sorted list of its files' names and digests.
	SHA256 string `json:"sha256"`
	// Upstream says where the data itself comes from.
	Upstream string `json:"upstream,omitempty"`
}

type snapshotSource struct {
	Name     string            `json:"name"`
	Input    string            `json:"input"` // the input it was taken from
	Versions []snapshotVersion `json:"versions"`
}

type snapshotVersion struct {
	Created time.Time `json:"created"`
	Add     []string  `json:"add,omitempty"`
	Remove  []string  `json:"remove,omitempty"`
}

// SnapshotInfo describes the built-in snapshot.
type SnapshotInfo struct {
	Made      time.Time       `json:"made"`
	Generator string          `json:"generator"`
	Inputs    []SnapshotInput `json:"inputs"`
	Size      int             `json:"size"` // bytes of the embedded file
}

type snapshotResult struct {
	ranges *Ranges
	info   SnapshotInfo
}

var snapshot = sync.OnceValues(func() (*snapshotResult, error) {
	return decodeSnapshot(snapshotGz)
})

// Snapshot returns the ranges of the built-in snapshot: every source of
// sources.json, with the versions the snapshot holds for it (none for the
// sources it has no data for). It is decoded once; the same *Ranges is
// returned to every caller.
func Snapshot() (*Ranges, error) {
	s, err := snapshot()
	if err != nil {
		return nil, err
	}
	return s.ranges, nil
}

// BuiltinSnapshot describes the built-in snapshot: when it was made, from
// what, and its size.
func BuiltinSnapshot() (SnapshotInfo, error) {
	s, err := snapshot()
	if err != nil {
		return SnapshotInfo{}, err
	}
	return s.info, nil
}

func decodeSnapshot(gz []byte) (*snapshotResult, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("verify: built-in snapshot: %w", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("verify: built-in snapshot: %w", err)
	}
	var f snapshotFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("verify: built-in snapshot: %w", err)
	}
	if f.Format != SnapshotFormat {
		return nil, fmt.Errorf("verify: built-in snapshot: format %q, want %q", f.Format, SnapshotFormat)
	}
	t, err := table()
	if err != nil {
		return nil, err
	}
	origin := "built-in snapshot made " + f.Made.UTC().Format(time.DateOnly)
	byName := make(map[string]*snapshotSource, len(f.Sources))
	for i := range f.Sources {
		byName[f.Sources[i].Name] = &f.Sources[i]
	}
	sources := make([]*Source, 0, len(t.Sources))
	for _, e := range t.Sources {
		s := newSource(e)
		s.origin = origin
		if ss := byName[e.Name]; ss != nil {
			delete(byName, e.Name)
			if err := s.decodeVersions(ss); err != nil {
				return nil, fmt.Errorf("verify: built-in snapshot: %w", err)
			}
		}
		sources = append(sources, s)
	}
	for name := range byName {
		return nil, fmt.Errorf("verify: built-in snapshot: source %q is not in sources.json", name)
	}
	return &snapshotResult{
		ranges: newRanges(sources, t.DNS),
		info:   SnapshotInfo{Made: f.Made.UTC(), Generator: f.Generator, Inputs: f.Inputs, Size: len(gz)},
	}, nil
}

// decodeVersions rebuilds the versions of a source from their deltas, and
// checks each as vetList checks a list of a --ranges directory, from the
// deltas so that no list is built (see vetDelta).
func (s *Source) decodeVersions(ss *snapshotSource) error {
	set := make(map[netip.Prefix]bool)
	lists := make([]*List, 0, len(ss.Versions))
	var d deltaVet
	for i, v := range ss.Versions {
		d.begin(set)
		for _, p := range v.Remove {
			pfx, err := netip.ParsePrefix(p)
			if err != nil || !set[pfx] {
				return fmt.Errorf("%s version %d: cannot remove %q", s.Name, i, p)
			}
			delete(set, pfx)
			d.removed(pfx)
		}
		for _, p := range v.Add {
			pfx, err := netip.ParsePrefix(p)
			if err != nil || set[pfx] {
				return fmt.Errorf("%s version %d: cannot add %q", s.Name, i, p)
			}
			set[pfx] = true
			d.added(pfx)
		}
		if i > 0 && !ss.Versions[i-1].Created.Before(v.Created) {
			return fmt.Errorf("%s: versions not in ascending creation time at %d", s.Name, i)
		}
		if reasons := d.end(set, v.Created); len(reasons) > 0 {
			s.Refused = append(s.Refused, ListNote{File: "built-in snapshot", Created: v.Created.UTC(), Reasons: reasons, createdUS: v.Created.UnixMicro()})
			continue
		}
		ps := make([]netip.Prefix, 0, len(set))
		for p := range set {
			ps = append(ps, p)
		}
		lists = append(lists, newList(v.Created, ps))
	}
	// The generator wrote only versions whose prefixes changed (a delta
	// per version): no list is compared here, so that none is built
	// before an audit looks something up in it.
	s.Versions = lists
	return nil
}

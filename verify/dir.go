package verify

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/safefile"
)

// LoadDir reads a directory of dated range lists, DIR/<source>/<creation
// time>.json, as `crawlaudit ranges update` writes it. Each
// file is in its operator's own shape (the Format of its source in
// sources.json; FormatPrefixes for a source without one). A list's
// creation time is the one the file carries; for a shape without one
// (FormatAhrefs) it is the file name, an RFC 3339 time ("2026-08-21T14:45:42Z",
// or with '-' for ':' in the time of day).
//
// Names beginning with '.' (temporary files) and files not ending in
// ".json" are ignored, as are plain files in DIR itself. A source directory
// without a list is not held. A directory whose name is not a source of
// sources.json is an error that lists the known names.
//
// Each list is checked before it is trusted (see vetList): an implausible
// one is refused and kept aside (SourceInfo.Refused; in its period an
// address outside the list before it is unverified, never spoofed), and
// special-purpose entries among real ones are dropped (SourceInfo.Dropped).
// A source whose every list was refused is held without versions, so that
// Override keeps the snapshot's lists for it.
//
// Every file is read only if it is a regular file (a symbolic link is
// followed) of at most MaxListBytes.
//
// The Ranges returned holds only the sources found in DIR; use
// Snapshot().Override(dirRanges) to audit with the snapshot for the rest.
func LoadDir(dir string) (*Ranges, error) { return loadDir(osFiles{}, dir) }

// LoadFS is LoadDir over fsys, whose root holds what the directory dir
// held: dir names it in errors and in SourceInfo.Origin, as LoadDir would.
// It is for a program that read the directory on another machine
// (crawlaudit-beam's launcher, for its workers).
func LoadFS(fsys fs.FS, dir string) (*Ranges, error) {
	return loadDir(subFiles{fsys: fsys, root: dir}, dir)
}

// dirFiles is where loadDir reads: the paths are those of the directory
// given (filepath.Join of it and the names below it).
type dirFiles interface {
	ReadDir(path string) ([]fs.DirEntry, error)
	Stat(path string) (fs.FileInfo, error)
	ReadFile(path string, max int64) ([]byte, error)
}

// osFiles reads the file system.
type osFiles struct{}

func (osFiles) ReadDir(p string) ([]fs.DirEntry, error)      { return os.ReadDir(p) }
func (osFiles) Stat(p string) (fs.FileInfo, error)           { return os.Stat(p) }
func (osFiles) ReadFile(p string, max int64) ([]byte, error) { return safefile.ReadFile(p, max) }

// subFiles reads fsys, whose root stands for the directory root.
type subFiles struct {
	fsys fs.FS
	root string
}

// name returns the name in fsys of the path p under root.
func (f subFiles) name(p string) (string, error) {
	rel, err := filepath.Rel(f.root, p)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

func (f subFiles) ReadDir(p string) ([]fs.DirEntry, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(f.fsys, n)
}

func (f subFiles) Stat(p string) (fs.FileInfo, error) {
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	return fs.Stat(f.fsys, n)
}

func (f subFiles) ReadFile(p string, max int64) ([]byte, error) {
	fi, err := f.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", p, safefile.ErrNotRegular)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s: %w: larger than %s", p, safefile.ErrTooLarge, safefile.Size(max))
	}
	n, err := f.name(p)
	if err != nil {
		return nil, err
	}
	return fs.ReadFile(f.fsys, n)
}

// loadDir is LoadDir reading from r.
func loadDir(r dirFiles, dir string) (*Ranges, error) {
	now := time.Now()
	t, err := table()
	if err != nil {
		return nil, err
	}
	entries, err := r.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	known := make(map[string]tableEntry, len(t.Sources))
	for _, e := range t.Sources {
		known[e.Name] = e
	}
	found := make(map[string]*Source)
	var unknown []string
	for _, de := range entries {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		fi, err := r.Stat(p) // follows a symbolic link
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			continue
		}
		e, ok := known[name]
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		s := newSource(e)
		s.origin = p
		lists, files, err := readSourceDir(r, s, p)
		if err != nil {
			return nil, err
		}
		if len(lists) == 0 {
			continue
		}
		if err := s.setVetted(lists, files.name, files.written, now); err != nil {
			return nil, err
		}
		found[name] = s
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%s: unknown range source directory %s (the sources are: %s)",
			dir, strings.Join(quoteAll(unknown), ", "), strings.Join(SourceNames(), ", "))
	}
	var sources []*Source
	for _, e := range t.Sources {
		if s := found[e.Name]; s != nil {
			sources = append(sources, s)
		}
	}
	return newRanges(sources, t.DNS), nil
}

// MaxListBytes bounds a range list file of a --ranges directory, as it
// bounds a download of `ranges update`: the largest published list is a few
// hundred kilobytes.
const MaxListBytes = 32 << 20

// listFiles says where each list read from a directory came from.
type listFiles struct {
	path map[*List]string
	mod  map[*List]time.Time
}

func (f listFiles) name(l *List) string       { return f.path[l] }
func (f listFiles) written(l *List) time.Time { return f.mod[l] }

// readSourceDir parses the lists in the directory of source s, and returns
// them with the file each came from.
func readSourceDir(r dirFiles, s *Source, dir string) ([]*List, listFiles, error) {
	files := listFiles{path: make(map[*List]string), mod: make(map[*List]time.Time)}
	entries, err := r.ReadDir(dir)
	if err != nil {
		return nil, files, err
	}
	var lists []*List
	for _, de := range entries {
		name := de.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") || de.IsDir() {
			continue
		}
		p := filepath.Join(dir, name)
		data, err := r.ReadFile(p, MaxListBytes)
		if err != nil {
			return nil, files, err
		}
		var fileTime time.Time
		if !hasCreationTime(s.Format) {
			if fileTime, err = parseFileTime(name); err != nil {
				return nil, files, fmt.Errorf("%s: %w", p, err)
			}
		}
		l, err := ParseFile(s.Format, p, data, fileTime)
		if err != nil {
			return nil, files, err
		}
		lists = append(lists, l)
		files.path[l] = p
		if fi, err := r.Stat(p); err == nil {
			files.mod[l] = fi.ModTime()
		}
	}
	return lists, files, nil
}

// parseFileTime parses a file name "<RFC 3339 time>.json"; '-' may stand
// for ':' in the time of day (file systems without ':').
func parseFileTime(name string) (time.Time, error) {
	base := strings.TrimSuffix(name, ".json")
	if t, err := time.Parse(time.RFC3339Nano, base); err == nil {
		return t.UTC(), nil
	}
	if i := strings.IndexByte(base, 'T'); i > 0 {
		clock := base[i+1:]
		// Restore the two ':' of hh-mm-ss, not the '-' of a zone offset.
		if len(clock) >= 8 && clock[2] == '-' && clock[5] == '-' {
			fixed := base[:i+1] + clock[:2] + ":" + clock[3:5] + ":" + clock[6:]
			if t, err := time.Parse(time.RFC3339Nano, fixed); err == nil {
				return t.UTC(), nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("%w: the file name %q is not an RFC 3339 creation time, and the file carries none", ErrCreationTime, name)
}

// fileName is the name under which a list created at t is stored.
func fileName(t time.Time) string { return t.UTC().Format(time.RFC3339) + ".json" }

func quoteAll(ss []string) []string {
	out := slices.Clone(ss)
	for i, s := range out {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// loadDir reads a directory of versions, flat or with one subdirectory per
// host; named reports the per-host layout.
func loadDir(dir string) (vs []Version, warns []string, named bool, err error) {
	files, subdirs, warns, err := listDir(dir)
	if err != nil {
		return nil, nil, false, err
	}
	switch {
	case len(files) > 0 && len(subdirs) > 0:
		return nil, nil, false, fmt.Errorf("robots history %s: mixed layout: it holds both version files (%s) and host directories (%s/); use one or the other",
			dir, files[0], subdirs[0])
	case len(files) > 0:
		vs, w, err := loadVersions(dir, files, "")
		return vs, append(warns, w...), false, err
	case len(subdirs) > 0:
		seen := make(map[string]string)
		for _, sub := range subdirs {
			host, err := hostFromDir(sub)
			if err != nil {
				return nil, nil, false, fmt.Errorf("robots history %s: %w", filepath.Join(dir, sub), err)
			}
			if prev, ok := seen[host]; ok {
				return nil, nil, false, fmt.Errorf("robots history %s: directories %s and %s name the same host %s", dir, prev, sub, host)
			}
			seen[host] = sub
			hdir := filepath.Join(dir, sub)
			hfiles, hsub, w, err := listDir(hdir)
			if err != nil {
				return nil, nil, false, err
			}
			warns = append(warns, w...)
			if len(hsub) > 0 {
				return nil, nil, false, fmt.Errorf("robots history %s: unexpected directory in a host directory (want HOST/INSTANT.txt)", filepath.Join(hdir, hsub[0]))
			}
			if len(hfiles) == 0 {
				return nil, nil, false, fmt.Errorf("robots history %s: no version files (INSTANT.txt) for host %s", hdir, host)
			}
			hv, w, err := loadVersions(hdir, hfiles, host)
			if err != nil {
				return nil, nil, false, err
			}
			warns = append(warns, w...)
			vs = append(vs, hv...)
		}
		return vs, warns, true, nil
	default:
		return nil, nil, false, fmt.Errorf("robots history %s: no version files (INSTANT.txt) and no host directories", dir)
	}
}

// listDir returns the names of the *.txt files and of the visible
// subdirectories of dir, sorted, with a warning for everything else.
func listDir(dir string) (files, subdirs, warns []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("robots history: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p) // follows symbolic links
		if err != nil {
			return nil, nil, nil, fmt.Errorf("robots history: %w", err)
		}
		switch {
		case name == ManifestName && fi.Mode().IsRegular():
			// Read by loadVersions.
		case strings.HasPrefix(name, "."):
			warns = append(warns, fmt.Sprintf("%s: skipped: hidden", p))
		case fi.IsDir():
			subdirs = append(subdirs, name)
		case !strings.EqualFold(filepath.Ext(name), ".txt"):
			warns = append(warns, fmt.Sprintf("%s: skipped: not a version file (INSTANT.txt)", p))
		case !fi.Mode().IsRegular():
			return nil, nil, nil, fmt.Errorf("robots history %s: not a regular file (%s)", p, fi.Mode().Type())
		default:
			files = append(files, name)
		}
	}
	return files, subdirs, warns, nil
}

// loadVersions reads the version files of one host, sorted by instant.
func loadVersions(dir string, files []string, host string) ([]Version, []string, error) {
	var (
		vs    []Version
		warns []string
		seen  = make(map[int64]string)
	)
	notBefore, err := manifestNotBefore(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range files {
		p := filepath.Join(dir, name)
		start, err := ParseInstant(name[:len(name)-len(".txt")])
		if err != nil {
			return nil, nil, fmt.Errorf("robots history %s: file name is not the instant the version went live (want 2026-10-01T00:00:00Z.txt, 2026-10-01.txt or 20261001T000000Z.txt): %w", p, err)
		}
		us := start.UnixMicro()
		if prev, ok := seen[us]; ok {
			return nil, nil, fmt.Errorf("robots history %s: %s and %s name the same instant %s", dir, prev, name, start.Format(time.RFC3339Nano))
		}
		seen[us] = name
		v, w, err := readVersion(p, start)
		if err != nil {
			return nil, nil, err
		}
		v.Host = host
		if nb, ok := notBefore[name]; ok {
			if nb.After(start) {
				return nil, nil, fmt.Errorf("robots history %s: not_before %s of %s is after the instant the file names; fetch the history again or correct the file",
					filepath.Join(dir, ManifestName), nb.Format(time.RFC3339), name)
			}
			v.NotBefore = nb
		}
		warns = append(warns, w...)
		vs = append(vs, v)
	}
	return vs, warns, nil
}

// manifestNotBefore returns the not_before of each version file of dir that
// versions.json gives one (none when there is no versions.json). An entry
// whose file is not a plain name is ignored: it cannot be one of dir's.
func manifestNotBefore(dir string) (map[string]time.Time, error) {
	m, ok, err := ReadManifest(dir)
	if err != nil || !ok {
		return nil, err
	}
	out := make(map[string]time.Time, len(m.Versions))
	for _, v := range m.Versions {
		if v.NotBefore != nil && filepath.Base(v.File) == v.File {
			out[v.File] = v.NotBefore.UTC().Truncate(time.Microsecond)
		}
	}
	return out, nil
}

// readVersion reads the file p as a version starting at start.
func readVersion(p string, start time.Time) (Version, []string, error) {
	f, err := os.Open(p)
	if err != nil {
		return Version{}, nil, fmt.Errorf("robots history: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Version{}, nil, fmt.Errorf("robots history: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return Version{}, nil, fmt.Errorf("robots history %s: not a regular file (%s)", p, fi.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxVersionBytes+1))
	if err != nil {
		return Version{}, nil, fmt.Errorf("robots history: cannot read %s: %w", p, err)
	}
	var warns []string
	if len(data) > MaxVersionBytes {
		data = data[:MaxVersionBytes:MaxVersionBytes]
		warns = append(warns, fmt.Sprintf("%s: truncated to its first %d bytes", p, MaxVersionBytes))
	}
	return Version{Start: start, Name: p, Data: data}, warns, nil
}

// ParseInstant parses the instant a version file is named by (its name
// without ".txt"): RFC 3339 ("2026-10-01T00:00:00Z", fractional seconds and a
// numeric offset accepted), a date ("2026-10-01", midnight UTC) or the basic
// ISO 8601 form "20261001T000000Z". The result is in UTC, truncated to the
// microsecond.
func ParseInstant(s string) (time.Time, error) {
	var (
		t   time.Time
		err error
	)
	switch {
	case len(s) == len("2006-01-02"):
		t, err = time.Parse(time.DateOnly, s)
	case len(s) == len("20060102T150405Z") && s[8] == 'T':
		t, err = time.Parse("20060102T150405Z", s)
	case len(s) > len("2006-01-02") && s[10] == 'T':
		t, err = time.Parse(time.RFC3339Nano, s)
	default:
		err = errors.New("unknown form")
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("cannot parse instant %q: %w", s, err)
	}
	return t.UTC().Truncate(time.Microsecond), nil
}

// hostFromDir returns the normalised host named by a host directory.
func hostFromDir(name string) (string, error) {
	host := NormalizeHost(name)
	if host == "" {
		return "", fmt.Errorf("directory name %q is not a host name", name)
	}
	for _, r := range host {
		if r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`/\?#@"'<>|*`, r) {
			return "", fmt.Errorf("directory name %q is not a host name", name)
		}
	}
	return host, nil
}

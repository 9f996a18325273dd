package wayback

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// readPrevious reads the versions already in the host directory, whose
// bodies need not be fetched again. A directory that is not one history
// fetch wrote is refused: replacing it would lose the user's files.
func (f *fetcher) readPrevious() error {
	fi, err := os.Stat(f.target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory: choose another -o DIR", f.target)
	}
	m, ok, err := history.ReadManifest(f.target)
	if err != nil {
		return err
	}
	if !ok {
		if es, _ := os.ReadDir(f.target); len(es) > 0 {
			return fmt.Errorf("%s holds files that history fetch did not write (no %s): choose another -o DIR, or move them away", f.target, history.ManifestName)
		}
		return nil
	}
	for _, v := range m.Versions {
		if v.Bytes == 0 || filepath.Base(v.File) != v.File {
			continue
		}
		b, err := os.ReadFile(filepath.Join(f.target, v.File))
		if err == nil && len(b) == v.Bytes {
			f.prev[v.Digest] = b
			f.prev[Digest(b)] = b // the key of a live check
		}
	}
	f.checks = m.LiveChecks
	return nil
}

// withLiveChecks adds to caps the reads of the site by earlier --live runs
// that fall in the period, so that the versions they made are made again:
// the archive does not hold them. A read whose body is no longer in the
// directory is left out with a warning.
func (f *fetcher) withLiveChecks(caps []Capture) []Capture {
	for _, lc := range f.checks {
		if !f.opt.From.IsZero() && lc.Time.Before(f.opt.From) || !f.opt.To.IsZero() && lc.Time.After(f.opt.To) {
			continue
		}
		if lc.Status >= 200 && lc.Status <= 299 && lc.Bytes > 0 {
			if _, ok := f.prev[lc.Digest]; !ok {
				f.res.Warnings = append(f.res.Warnings, fmt.Sprintf("%s read at %s: its body is no longer in %s; left out", lc.URL, lc.Time.Format(time.RFC3339), f.target))
				continue
			}
		}
		status := fmt.Sprint(lc.Status)
		if lc.Status >= 200 && lc.Status <= 299 {
			status = "200"
		}
		caps = append(caps, Capture{Timestamp: lc.Time.UTC().Format(cdxTimeLayout), Time: lc.Time.UTC(),
			Original: lc.URL, Status: status, Digest: lc.Digest, live: true})
	}
	sortCaptures(caps)
	return caps
}

// write builds the host directory beside the old one and puts it in place.
func (f *fetcher) write(vs []*version) error {
	m := &f.res.Manifest
	m.Host, m.Archive = f.host, f.archive
	if !f.opt.From.IsZero() {
		m.From = f.opt.From.UTC().Format(time.RFC3339)
	}
	if !f.opt.To.IsZero() {
		m.To = f.opt.To.UTC().Format(time.RFC3339)
	}
	m.Versions = make([]history.ManifestVersion, len(vs))
	for i, v := range vs {
		m.Versions[i] = v.ManifestVersion
	}
	m.LiveChecks = f.checks
	if m.Unversioned == nil {
		m.Unversioned = []history.ManifestCapture{}
	}
	js, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	js = append(js, '\n')
	tmp := atomicfile.TempPath(f.target)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		atomicfile.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", f.target, err)
	}
	for _, v := range vs {
		if err := writeSynced(filepath.Join(tmp, v.File), v.body); err != nil {
			atomicfile.Remove(tmp)
			return fmt.Errorf("cannot write %s: %w", f.target, err)
		}
	}
	if err := writeSynced(filepath.Join(tmp, history.ManifestName), js); err != nil {
		atomicfile.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", f.target, err)
	}
	f.res.Dir = f.target
	return atomicfile.ReplaceDir(tmp, f.target)
}

// writeSynced writes a new file and syncs it, so that the directory renamed
// into place holds complete files even after a power cut.
func writeSynced(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := fh.Write(data); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

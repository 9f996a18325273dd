package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Staged writes a set of files into one directory so that they appear
// together: each is written complete under a hidden temporary name
// (".NAME.tmp-RANDOM"), and Commit renames them all into place only once
// every one is complete. Until Commit, the directory's files are the old
// ones; Abort (or a failed Write) removes every temporary file. A Staged is
// not for concurrent use.
type Staged struct {
	dir   string
	files []stagedFile
	// owned are files an earlier set may have held: Commit removes those
	// not written this time (RemoveOthers).
	owned []string
	// also are temporary files of TempPath elsewhere that Commit renames
	// with the set (AlsoRename).
	also [][2]string
}

type stagedFile struct{ tmp, name string }

// NewStaged returns a Staged writing into dir, which must exist. It first
// completes a Commit that a killed run left half-done and removes the
// temporary files that killed runs left in dir (SweepStale).
func NewStaged(dir string) *Staged {
	SweepStale(dir)
	return &Staged{dir: dir}
}

// RemoveOthers names the files (base names in the directory) that an
// earlier set may have held and this one may not: Commit removes each of
// them not written this time, so that the directory holds one set, never
// the files of a format asked for last time beside this time's. Other
// files in the directory are never touched.
func (s *Staged) RemoveOthers(names ...string) {
	s.owned = append(s.owned, names...)
}

// Write writes the file name (a base name inside the directory) through
// write, buffered, to a temporary file that is synced and closed, with the
// permissions of the file it will replace (0644 for a new one). On error
// the temporary file is removed and the error names the file.
func (s *Staged) Write(name string, write func(io.Writer) error) (err error) {
	path := filepath.Join(s.dir, name)
	if filepath.Base(name) != name || name == "." || name == ".." {
		return fmt.Errorf("cannot write %s: not a file name", path)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("cannot write %s: not a regular file (%s)", path, fi.Mode().Type())
		}
		mode = fi.Mode().Perm()
	}
	f, err := createTemp(s.dir, name)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	done := false
	defer func() {
		// Also on a panic in write: the temporary file goes, then the
		// panic goes on.
		if !done {
			f.Close()
			os.Remove(f.Name())
			untrack(f.Name())
		}
		if err != nil {
			err = fmt.Errorf("cannot write %s: %w", path, err)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	s.files = append(s.files, stagedFile{tmp: f.Name(), name: path})
	done = true
	return nil
}

// WriteWith replaces the file at path with what write writes, so that a
// reader sees the old file or the complete new one, never a part: a Staged
// set of one file (see Staged.Write for the temporary name, permissions,
// sync and clean-up, on an error or a panic in write alike).
func WriteWith(path string, write func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return fmt.Errorf("cannot write %q: not a file name", path)
	}
	s := NewStaged(dir)
	defer s.Abort()
	if err := s.Write(base, write); err != nil {
		return err
	}
	return s.Commit()
}

// AlsoRename adds to the set a file outside the directory: tmp, a complete
// and closed file of TempPath, which Commit renames over path after the
// directory's files, under the same journal, so that a process killed
// between the two leaves both for the next run to complete, never the
// directory new beside path old.
func (s *Staged) AlsoRename(tmp, path string) {
	s.also = append(s.also, [2]string{tmp, path})
}

// Commit renames every written file into place, removes the files of
// RemoveOthers not written, then syncs the directory. A set of more than
// one change is published through a journal (see publish.go): a process
// killed half-way through the renames leaves a directory that the next
// NewStaged (or Recover) completes, so the set changes as a whole. A
// rename that fails stops the commit; the files not yet renamed are
// removed and the error returned.
func (s *Staged) Commit() error {
	written := make(map[string]bool, len(s.files))
	for _, f := range s.files {
		written[filepath.Base(f.name)] = true
	}
	var stale []string
	for _, n := range s.owned {
		if written[n] || slices.Contains(stale, n) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(s.dir, n)); err == nil {
			stale = append(stale, n)
		}
	}
	var j *journal
	if len(s.files)+len(stale)+len(s.also) > 1 {
		j = &journal{PID: os.Getpid(), Remove: stale, Also: s.also}
		for _, f := range s.files {
			j.Rename = append(j.Rename, [2]string{filepath.Base(f.tmp), filepath.Base(f.name)})
		}
		if err := j.write(s.dir); err != nil {
			s.Abort()
			return err
		}
	}
	for i, f := range s.files {
		if err := os.Rename(f.tmp, f.name); err != nil {
			s.files = s.files[i:]
			s.Abort()
			if j != nil {
				removeJournal(s.dir)
			}
			return fmt.Errorf("cannot write %s: %w", f.name, err)
		}
		untrack(f.tmp)
		if testAfterRename != nil {
			testAfterRename(i)
		}
	}
	s.files = nil
	var err error
	for _, a := range s.also {
		if rerr := Rename(a[0], a[1]); rerr != nil && err == nil {
			err = fmt.Errorf("cannot replace %s: %w", a[1], rerr)
		}
	}
	s.also = nil
	for _, n := range stale {
		if rerr := os.Remove(filepath.Join(s.dir, n)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
			err = fmt.Errorf("cannot remove %s, left from an earlier run: %w", filepath.Join(s.dir, n), rerr)
		}
	}
	syncDir(s.dir)
	if j != nil {
		removeJournal(s.dir)
	}
	return err
}

// testAfterRename, when set by a test, is called after each rename of
// Commit: a test stops there as a SIGKILL would.
var testAfterRename func(i int)

// Abort removes every temporary file not yet committed. It returns the
// first error other than the file being already gone.
func (s *Staged) Abort() error {
	var first error
	for _, f := range s.files {
		if err := os.Remove(f.tmp); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
		untrack(f.tmp)
	}
	s.files = nil
	return first
}

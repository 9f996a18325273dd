package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
}

type stagedFile struct{ tmp, name string }

// NewStaged returns a Staged writing into dir, which must exist. It first
// removes the temporary files that killed runs left in dir (SweepStale).
func NewStaged(dir string) *Staged {
	SweepStale(dir)
	return &Staged{dir: dir}
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

// Commit renames every written file into place, then syncs the directory
// (best effort). A rename that fails stops the commit; the files not yet
// renamed are removed and the error returned.
func (s *Staged) Commit() error {
	for i, f := range s.files {
		if err := os.Rename(f.tmp, f.name); err != nil {
			s.files = s.files[i:]
			s.Abort()
			return fmt.Errorf("cannot write %s: %w", f.name, err)
		}
		untrack(f.tmp)
	}
	s.files = nil
	syncDir(s.dir)
	return nil
}

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

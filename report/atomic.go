package report

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes the file at path through write, so that a reader
// sees either the old file or the complete new one, never a part (contract
// §2.2). It writes to a temporary file in the same directory (named
// ".NAME.tmp-RANDOM", hidden, so a glob for the real names never picks it
// up), buffered; flushes, fsyncs and closes it; gives it the permissions of
// the file it replaces, or 0644 for a new file; renames it over path; and
// fsyncs the directory so that the rename survives a crash (best effort: not
// every file system allows it).
//
// When write returns an error or panics, or any step fails, the temporary
// file is removed, the file at path is left as it was, and the error (naming
// path) is returned; a panic is re-raised after the clean-up. write must not
// keep the io.Writer after it returns.
func WriteFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return fmt.Errorf("cannot write %q: not a file name", path)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("cannot write %s: not a regular file (%s)", path, fi.Mode().Type())
		}
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: sync: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	done = true
	syncDir(dir)
	return nil
}

// syncDir fsyncs a directory, ignoring errors: some file systems and
// platforms refuse to open or sync a directory, and the data itself is
// already safely written.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

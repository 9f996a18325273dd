package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Temporary files are named ".BASE.tmp-PID-RANDOM" beside the file they
// will replace: hidden, recognisable, and carrying the process that made
// them, so that a later run can remove the ones a killed run (SIGKILL, a
// power cut) could not (SweepStale).

// tmpMarker separates a temporary file's base name from its PID.
const tmpMarker = ".tmp-"

// live holds the temporary paths of this process not yet renamed or
// removed, for RemoveTemporary.
var live struct {
	sync.Mutex
	paths map[string]bool
}

// track records path as a live temporary file; untrack forgets it.
func track(path string) {
	live.Lock()
	if live.paths == nil {
		live.paths = make(map[string]bool)
	}
	live.paths[path] = true
	live.Unlock()
}

func untrack(path string) {
	live.Lock()
	delete(live.paths, path)
	live.Unlock()
}

// RemoveTemporary removes every temporary file and directory of this
// process that was neither renamed into place nor removed yet (with
// TempPath's companions: DuckDB's ".wal" and ".tmp"). It is for a process
// that must exit at once (a second Ctrl-C) without unwinding.
func RemoveTemporary() {
	live.Lock()
	defer live.Unlock()
	for p := range live.paths {
		removeWithCompanions(p)
		delete(live.paths, p)
	}
}

// companions are the files a database engine makes beside a database
// file: DuckDB's write-ahead log and its spill directory.
var companions = []string{"", ".wal", ".tmp"}

func removeWithCompanions(p string) error {
	var first error
	for _, c := range companions {
		if err := os.RemoveAll(p + c); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// TempPath returns a new temporary name beside path (".BASE.tmp-PID-RANDOM"
// in its directory), for a file that another program creates (a DuckDB
// database) and Rename later moves over path. The name is tracked until
// Rename or Remove.
func TempPath(path string) string {
	dir, base := filepath.Split(path)
	p := filepath.Join(dir, fmt.Sprintf(".%s%s%d-%08x", base, tmpMarker, os.Getpid(), rand.Uint32()))
	track(p)
	return p
}

// Rename moves the temporary file tmp (from TempPath) over path, after
// removing path's stale companions (a write-ahead log left beside the old
// file must not be replayed into the new one), and syncs the directory.
func Rename(tmp, path string) error {
	for _, c := range companions[1:] {
		os.RemoveAll(path + c)
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	removeWithCompanions(tmp) // the companions DuckDB left, if any
	untrack(tmp)
	syncDir(filepath.Dir(path))
	return nil
}

// Remove removes the temporary file tmp (from TempPath) and its
// companions.
func Remove(tmp string) error {
	err := removeWithCompanions(tmp)
	untrack(tmp)
	return err
}

// createTemp creates a new temporary file for path in dir, tracked.
func createTemp(dir, base string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "."+base+tmpMarker+strconv.Itoa(os.Getpid())+"-*")
	if err == nil {
		track(f.Name())
	}
	return f, err
}

// SweepStale removes from dir the temporary files (and DuckDB companions)
// of crawlaudit runs whose process no longer exists: what a run killed
// with SIGKILL leaves behind. A file of a running process is left alone.
// It returns the names removed. A Commit a killed run left half-done is
// completed first (Recover): its temporary files are the new set.
func SweepStale(dir string) []string {
	Recover(dir)
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range es {
		name := e.Name()
		pid, ok := tempPID(name)
		if !ok || processAlive(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(dir, name)) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}

// SweepStaleOf is SweepStale limited to the temporary files of base (made
// by TempPath(filepath.Join(dir, base))), for a shared directory such as
// os.TempDir() where other programs' files must not be touched.
func SweepStaleOf(dir, base string) []string {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	prefix := "." + base + tmpMarker
	for _, e := range es {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		if pid, ok := tempPID(name); ok && !processAlive(pid) && os.RemoveAll(filepath.Join(dir, name)) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}

// tempPID returns the PID in a temporary file's name
// (".BASE.tmp-PID-RANDOM", with or without a companion suffix).
func tempPID(name string) (int, bool) {
	if !strings.HasPrefix(name, ".") {
		return 0, false
	}
	i := strings.LastIndex(name, tmpMarker)
	if i < 0 {
		return 0, false
	}
	rest := name[i+len(tmpMarker):]
	digits, _, ok := strings.Cut(rest, "-")
	if !ok || digits == "" {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

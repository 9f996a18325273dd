package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A set of files (Staged) is published with a roll-forward journal, as a
// database commits a transaction or dpkg installs a package: every new file
// is first complete and synced under its temporary name, then the journal
// (journalName, written atomically) lists the renames and removals still
// to do, then they are done and the journal removed. A process killed
// between the journal and its removal leaves complete temporary files and
// the list of what to do with them: Recover does it, so the next run
// finds the new set whole, never a mix of two runs. Plain files stay plain
// files (no symbolic links into a generation directory, which copies and
// archives of the directory would break).

// journalName is the journal's name in the directory.
const journalName = ".crawlaudit-publish.json"

// journal is what a Commit still has to do, in base names.
type journal struct {
	PID    int         `json:"pid"`
	Rename [][2]string `json:"rename"` // temporary name, final name
	Remove []string    `json:"remove"`
	// Also are renames of files outside the directory (Staged.AlsoRename),
	// as paths.
	Also [][2]string `json:"also,omitempty"`
}

func (j *journal) write(dir string) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	if err := WriteFile(filepath.Join(dir, journalName), b); err != nil {
		return fmt.Errorf("cannot write %s: %w", filepath.Join(dir, journalName), err)
	}
	syncDir(dir)
	return nil
}

func removeJournal(dir string) {
	os.Remove(filepath.Join(dir, journalName))
	syncDir(dir)
}

// pidAlive is processAlive (a variable for the tests).
var pidAlive = processAlive

// Recover completes the Commit that a killed process left half-done in
// dir: the renames whose temporary file is still there, then the
// removals. A journal of a process still running is left alone (it is
// committing now), as is one that cannot be read (removed, with an error).
// It reports whether there was a journal to complete.
func Recover(dir string) (bool, error) {
	path := filepath.Join(dir, journalName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cannot read %s: %w", path, err)
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		// A journal is written whole under a temporary name, so this is
		// not one of ours half-written: leave the files as they are.
		removeJournal(dir)
		return false, fmt.Errorf("%s is damaged (%v): removed it", path, err)
	}
	if j.PID > 0 && j.PID != os.Getpid() && pidAlive(j.PID) {
		return false, nil
	}
	for _, r := range j.Rename {
		if !plainName(r[0]) || !plainName(r[1]) {
			continue
		}
		tmp := filepath.Join(dir, r[0])
		if _, err := os.Lstat(tmp); err != nil {
			continue // renamed before the process stopped
		}
		if err := os.Rename(tmp, filepath.Join(dir, r[1])); err != nil {
			return true, fmt.Errorf("cannot complete the files of an interrupted run in %s: %w", dir, err)
		}
	}
	for _, a := range j.Also {
		if !strings.Contains(filepath.Base(a[0]), tmpMarker) {
			continue // only a temporary file of TempPath is moved
		}
		if _, err := os.Lstat(a[0]); err != nil {
			continue
		}
		if err := Rename(a[0], a[1]); err != nil {
			return true, fmt.Errorf("cannot complete the files of an interrupted run: %w", err)
		}
	}
	for _, n := range j.Remove {
		if plainName(n) {
			os.Remove(filepath.Join(dir, n))
		}
	}
	syncDir(dir)
	removeJournal(dir)
	return true, nil
}

// plainName reports whether n is a base name inside the directory.
func plainName(n string) bool {
	return n != "" && n != "." && n != ".." && filepath.Base(n) == n
}

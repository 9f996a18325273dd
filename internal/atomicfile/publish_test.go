package atomicfile

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestCommitKilledHalfWay: a process stopped after some of a set's renames
// leaves a journal; the next Staged (or SweepStale) completes the set, so
// the directory never keeps a mix of two runs.
func TestCommitKilledHalfWay(t *testing.T) {
	names := []string{"a.txt", "b.txt", "c.txt", "d.txt"}
	for stopAfter := 0; stopAfter < len(names)-1; stopAfter++ {
		dir := t.TempDir()
		for _, n := range names[:3] {
			os.WriteFile(filepath.Join(dir, n), []byte("old "+n), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the user's"), 0o644)
		// A database outside the directory, renamed with the set.
		dbDir := t.TempDir()
		db := filepath.Join(dbDir, "audit.duckdb")
		os.WriteFile(db, []byte("old db"), 0o644)
		dbTmp := TempPath(db)
		os.WriteFile(dbTmp, []byte("new db"), 0o644)
		s := NewStaged(dir)
		s.RemoveOthers(names...)
		s.AlsoRename(dbTmp, db)
		for _, n := range []string{"a.txt", "b.txt", "d.txt"} { // c.txt not this time
			if err := s.Write(n, writeString("new "+n)); err != nil {
				t.Fatal(err)
			}
		}
		func() {
			type stop struct{}
			defer func() {
				if r := recover(); r != nil && r != (stop{}) {
					panic(r)
				}
				testAfterRename = nil
			}()
			testAfterRename = func(i int) {
				if i == stopAfter {
					panic(stop{})
				}
			}
			s.Commit()
			t.Fatalf("stop after rename %d: Commit went on", stopAfter)
		}()
		if _, err := os.Stat(filepath.Join(dir, journalName)); err != nil {
			t.Fatalf("stop after rename %d: no journal: %v", stopAfter, err)
		}
		// The journal of a live process (this one, as another PID) is
		// its commit under way: left alone.
		pidAlive = func(int) bool { return true }
		if done, _ := recoverAs(dir, os.Getpid()+1); done {
			t.Errorf("stop after rename %d: a live process's journal was replayed", stopAfter)
		}
		pidAlive = func(int) bool { return false }
		if done, err := recoverAs(dir, os.Getpid()+1); !done || err != nil {
			t.Errorf("stop after rename %d: Recover = %v, %v", stopAfter, done, err)
		}
		pidAlive = processAlive
		want := []string{"a.txt", "b.txt", "d.txt", "notes.txt"}
		if got := dirNames(t, dir); !slices.Equal(got, want) {
			t.Errorf("stop after rename %d: after recovery %v, want %v", stopAfter, got, want)
		}
		for _, n := range []string{"a.txt", "b.txt", "d.txt"} {
			if b, _ := os.ReadFile(filepath.Join(dir, n)); string(b) != "new "+n {
				t.Errorf("stop after rename %d: %s = %q", stopAfter, n, b)
			}
		}
		if b, _ := os.ReadFile(db); string(b) != "new db" {
			t.Errorf("stop after rename %d: the database is %q, want the new one", stopAfter, b)
		}
		if got := dirNames(t, dbDir); !slices.Equal(got, []string{"audit.duckdb"}) {
			t.Errorf("stop after rename %d: beside the database: %v", stopAfter, got)
		}
	}
}

// TestAlsoRename: a complete commit renames the file outside the directory
// too, and a set of one file with it still goes through the journal.
func TestAlsoRename(t *testing.T) {
	dir, dbDir := t.TempDir(), t.TempDir()
	db := filepath.Join(dbDir, "audit.duckdb")
	dbTmp := TempPath(db)
	os.WriteFile(dbTmp, []byte("new db"), 0o644)
	s := NewStaged(dir)
	if err := s.Write("summary.json", writeString("{}")); err != nil {
		t.Fatal(err)
	}
	s.AlsoRename(dbTmp, db)
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(db); string(b) != "new db" {
		t.Errorf("database = %q", b)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"summary.json"}) {
		t.Errorf("directory after Commit: %v", got)
	}
}

// recoverAs runs Recover on dir as if its journal were written by pid.
func recoverAs(dir string, pid int) (bool, error) {
	p := filepath.Join(dir, journalName)
	b, err := os.ReadFile(p)
	if err != nil {
		return false, err
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		return false, err
	}
	j.PID = pid
	if err := j.write(dir); err != nil {
		return false, err
	}
	return Recover(dir)
}

// TestRemoveOthers: a complete commit removes the files of an earlier set
// not written this time, and nothing else.
func TestRemoveOthers(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"summary.json", "blocklist.nft", "blocklist.csv", "mine.txt"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644)
	}
	s := NewStaged(dir)
	s.RemoveOthers("summary.json", "blocklist.nft", "blocklist.csv", "blocklist.ipset")
	if err := s.Write("summary.json", writeString("new")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write("blocklist.csv", writeString("new")); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	want := []string{"blocklist.csv", "mine.txt", "summary.json"}
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after Commit: %v, want %v", got, want)
	}
}

// TestTryLock: a second lock on the same output fails naming the holder,
// and is free again once the first is released.
func TestTryLock(t *testing.T) {
	dir := t.TempDir()
	for _, isDir := range []bool{true, false} {
		target := filepath.Join(dir, "audit.duckdb")
		if isDir {
			target = dir
		}
		l, err := TryLock(target, isDir)
		if err != nil {
			t.Fatal(err)
		}
		_, err = TryLock(target, isDir)
		le, ok := err.(*LockedError)
		if !ok || le.PID != os.Getpid() || le.Target != target {
			t.Fatalf("second lock: %v, want a LockedError naming process %d", err, os.Getpid())
		}
		if err := l.Unlock(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(LockPath(target, isDir)); !os.IsNotExist(err) {
			t.Errorf("lock file left after Unlock: %v", err)
		}
		l, err = TryLock(target, isDir)
		if err != nil {
			t.Fatalf("lock after Unlock: %v", err)
		}
		l.Unlock()
	}
}

//go:build duckdb_arrow && unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
)

// buildBinary builds crawlaudit into a test directory: signals are only
// real for a process of its own.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "crawlaudit")
	// go test puts the go command that runs it first in PATH.
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not in PATH: %v", err)
	}
	out, err := exec.Command(goTool, "build", "-tags", "duckdb_arrow", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// keptState is what a run leaves in --out and --db, with the time a block
// list was made blanked: the same inputs give the same state.
type keptState struct {
	out      map[string]string
	requests string
}

func (s keptState) equal(o keptState) bool {
	return s.requests == o.requests && mapsEqual(s.out, o.out)
}

// TestAuditSignals: an audit killed with SIGINT, SIGTERM or SIGKILL at any
// point leaves --out DIR and --db FILE together either as they were or
// complete from this run (after a SIGKILL amid the renames, once the next
// run has completed them); SIGINT and SIGTERM exit 130
// and 143 (SIGHUP and SIGQUIT 129 and 131) with a one-line message and
// leave no temporary file; what a
// SIGKILL leaves is removed by the next run.
func TestAuditSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and audits a million lines a dozen times")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	logFile, robotsDir := filepath.Join(dir, "access.log"), filepath.Join(dir, "robots")
	if out, err := exec.Command(bin, "gen", "--lines", "1000000", "--robots-dir", robotsDir, "-o", logFile).CombinedOutput(); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	today := regexp.MustCompile(time.Now().UTC().Format("2006-01-02") + `T\d\d:\d\d:\d\dZ`)
	state := func(out, db string) keptState {
		t.Helper()
		s := keptState{out: map[string]string{}}
		es, _ := os.ReadDir(out)
		for _, e := range es {
			if strings.Contains(e.Name(), ".tmp-") {
				continue // a killed run's, checked apart
			}
			b, _ := os.ReadFile(filepath.Join(out, e.Name()))
			s.out[e.Name()] = today.ReplaceAllString(string(b), "MADE")
		}
		q, err := exec.Command(bin, "query", "--db", db, "SELECT count(*), count(DISTINCT bot) FROM judged").CombinedOutput()
		if err != nil && len(es) > 0 {
			t.Fatalf("query %s: %v\n%s", db, err, q)
		}
		s.requests = string(q)
		return s
	}
	variants := [][]string{
		{"--from", "2026-10-01"},
		{"--from", "2026-10-01", "--to", "2026-10-15"}, // another audit: other files, other rows
	}
	audit := func(out, db string, v int) *exec.Cmd {
		args := append([]string{"audit", "-q", "--out", out, "--db", db, "--robots", robotsDir, "--block-format", "all"}, variants[v]...)
		cmd := exec.Command(bin, append(args, logFile)...)
		cmd.Stdout = new(bytes.Buffer)
		cmd.Stderr = new(bytes.Buffer)
		return cmd
	}
	// The complete state of each variant.
	var want [2]keptState
	var took [2]time.Duration
	for v := range variants {
		out, db := filepath.Join(dir, "ref", "out", string(rune('a'+v))), filepath.Join(dir, "ref", string(rune('a'+v))+".duckdb")
		os.MkdirAll(filepath.Dir(db), 0o755)
		start := time.Now()
		if cmd := audit(out, db, v); cmd.Run() != nil {
			t.Fatalf("variant %d: %s", v, cmd.Stderr)
		}
		took[v] = time.Since(start)
		want[v] = state(out, db)
	}
	if want[0].equal(want[1]) {
		t.Fatal("the two variants leave the same state: the test could not tell them apart")
	}
	t.Logf("a complete audit takes %v and %v", took[0], took[1])

	work := filepath.Join(dir, "work")
	os.MkdirAll(work, 0o755)
	out, db := filepath.Join(work, "out"), filepath.Join(work, "audit.duckdb")
	if cmd := audit(out, db, 0); cmd.Run() != nil {
		t.Fatalf("first run: %s", cmd.Stderr)
	}
	curOut, curDB := 0, 0 // the variant each holds
	total := took[0] + took[1]
	// SIGHUP (a closed terminal or ssh session) and SIGQUIT are handled
	// as SIGTERM.
	signals := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL, syscall.SIGHUP, syscall.SIGQUIT}
	killed := false
	for i := 0; i < 12; i++ {
		sig := signals[i%len(signals)]
		next := 1 - curOut
		// From the first lines read to the renames at the very end.
		delay := time.Duration(i+1) * total / 2 / 12
		cmd := audit(out, db, next)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		code := 0
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			code = xe.ExitCode()
			if ws, ok := xe.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		} else if err != nil {
			t.Fatal(err)
		}
		stderr := cmd.Stderr.(*bytes.Buffer).String()
		if sig == syscall.SIGKILL {
			// A SIGKILL amid the renames leaves the set's journal: the
			// next run completes it first, as this does.
			if done, err := atomicfile.Recover(out); done || err != nil {
				t.Logf("SIGKILL after %v: completed the set it was publishing (%v)", delay, err)
			}
		}
		got := state(out, db)
		// Each of --out and --db is what it was or this run's, whole, and
		// both are of the same run: they are published under one journal,
		// which the next run completes after a SIGKILL.
		outNew := mapsEqual(got.out, want[next].out)
		if !outNew && !mapsEqual(got.out, want[curOut].out) {
			t.Errorf("%v after %v (exit %d): --out is neither what it was nor this run's: %v\nstderr: %s", sig, delay, code, keys(got.out), stderr)
		}
		dbNew := got.requests == want[next].requests
		if !dbNew && got.requests != want[curDB].requests {
			t.Errorf("%v after %v (exit %d): --db is neither what it was nor this run's: %q\nstderr: %s", sig, delay, code, got.requests, stderr)
		}
		if outNew != dbNew && curOut == curDB {
			t.Errorf("%v after %v (exit %d): --out and --db are from different runs\nstderr: %s", sig, delay, code, stderr)
		}
		if outNew {
			curOut = next
		}
		if dbNew {
			curDB = next
		}
		if sig == syscall.SIGKILL {
			killed = killed || code == 128+int(syscall.SIGKILL)
			continue
		}
		switch code {
		case 0:
			// finished before the signal came
		case 128 + int(sig):
			// One line says so, the last (a signal after the run's own
			// "Wrote …" comes after it).
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if strings.Count(stderr, "interrupted by") != 1 || !strings.Contains(lines[len(lines)-1], "interrupted by") {
				t.Errorf("%v after %v: stderr %q, want its last line, once, to say it was interrupted", sig, delay, stderr)
			}
		default:
			t.Errorf("%v after %v: exit %d, want %d: %s", sig, delay, code, 128+int(sig), stderr)
		}
		for _, d := range []string{out, work} {
			if left := tempFiles(t, d); len(left) > 0 {
				t.Errorf("%v after %v: temporary files left in %s: %v", sig, delay, d, left)
			}
		}
	}
	if !killed {
		t.Log("no SIGKILL arrived before its run finished")
	}
	// The next complete run removes what the killed ones left.
	if cmd := audit(out, db, 1-curOut); cmd.Run() != nil {
		t.Fatalf("last run: %s", cmd.Stderr)
	}
	for _, d := range []string{out, work} {
		if left := tempFiles(t, d); len(left) > 0 {
			t.Errorf("after a complete run, temporary files are still in %s: %v", d, left)
		}
	}
}

// tempFiles returns the names in dir that are crawlaudit's temporary files.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		if strings.Contains(e.Name(), ".tmp-") || strings.HasSuffix(e.Name(), ".wal") {
			names = append(names, e.Name())
		}
	}
	return names
}

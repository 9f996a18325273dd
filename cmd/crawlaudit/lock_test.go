//go:build duckdb_arrow && unix

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAuditLockedOutputs: a second audit into the --out or --db of one
// that is running exits 2 at once, naming the process that holds it, and
// leaves the first to finish (two processes: the lock is the kernel's).
func TestAuditLockedOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	out, db := filepath.Join(dir, "out"), filepath.Join(dir, "audit.duckdb")
	robotsDir := filepath.Join("..", "..", "testdata", "sample", "robots")
	logFile := filepath.Join("..", "..", "testdata", "sample", "access-2026-10.log.gz")

	// The first audit reads its log from a pipe this test holds open: it
	// has taken its locks and waits for the log.
	first := exec.Command(bin, "audit", "-q", "--robots", robotsDir, "--out", out, "--db", db, "-")
	stdin, err := first.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var firstErr bytes.Buffer
	first.Stdout, first.Stderr = io.Discard, &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, e1 := os.Stat(filepath.Join(dir, ".out.lock"))
		_, e2 := os.Stat(filepath.Join(dir, ".audit.duckdb.lock"))
		if e1 == nil && e2 == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first audit took no lock: %v, %v; stderr: %s", e1, e2, firstErr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	pid := strconv.Itoa(first.Process.Pid)
	for _, tc := range []struct {
		name string
		args []string
		flag string
	}{
		{"same --out", []string{"--out", out}, "--out"},
		{"same --db", []string{"--db", db}, "--db"},
	} {
		args := append([]string{"audit", "-q", "--robots", robotsDir}, tc.args...)
		second := exec.Command(bin, append(args, logFile)...)
		var stderr bytes.Buffer
		second.Stderr = &stderr
		start := time.Now()
		err := second.Run()
		var xe *exec.ExitError
		if !errors.As(err, &xe) || xe.ExitCode() != 2 {
			t.Errorf("%s: second audit: %v, want exit 2; stderr: %s", tc.name, err, stderr.String())
		}
		msg := stderr.String()
		if !strings.Contains(msg, tc.flag) || !strings.Contains(msg, "process "+pid) {
			t.Errorf("%s: stderr %q, want it to name %s and process %s", tc.name, msg, tc.flag, pid)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("%s: the second audit took %v to give up", tc.name, took)
		}
	}
	// The first finishes as if alone, and releases its locks.
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	stdin.Write(b)
	stdin.Close()
	if err := first.Wait(); err != nil {
		t.Fatalf("first audit: %v: %s", err, firstErr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err != nil {
		t.Errorf("the first audit wrote no summary.json: %v", err)
	}
	for _, p := range []string{filepath.Join(dir, ".out.lock"), filepath.Join(dir, ".audit.duckdb.lock")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("lock file %s left after the run: %v", p, err)
		}
	}
	// Now a second audit may write.
	again := exec.Command(bin, "audit", "-q", "--robots", robotsDir, "--out", out, "--db", db, logFile)
	if o, err := again.CombinedOutput(); err != nil {
		t.Errorf("audit after the first finished: %v: %s", err, o)
	}
}

// TestAuditStaleFormats: the block list files of formats asked for last
// time but not this time leave --out with the new set; a file of the
// user's stays.
func TestAuditStaleFormats(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
	robotsDir := filepath.Join("..", "..", "testdata", "sample", "robots")
	logFile := filepath.Join("..", "..", "testdata", "sample", "access-2026-10.log.gz")
	audit := func(extra ...string) {
		t.Helper()
		var stderr bytes.Buffer
		args := append([]string{"audit", "-q", "--robots", robotsDir, "--out", out}, extra...)
		if code := run(context.Background(), append(args, logFile), nil, io.Discard, &stderr); code != 0 {
			t.Fatalf("audit %v: exit %d: %s", extra, code, stderr.String())
		}
	}
	names := func() []string {
		es, _ := os.ReadDir(out)
		var ns []string
		for _, e := range es {
			ns = append(ns, e.Name())
		}
		return ns
	}
	audit("--block-format", "all")
	if n := names(); !slices.Contains(n, "blocklist.nft") || !slices.Contains(n, "blocklist.crowdsec.json") {
		t.Fatalf("--block-format all wrote %v", n)
	}
	audit("--block-format", "nftables")
	n := names()
	if !slices.Contains(n, "blocklist.nft") || slices.Contains(n, "blocklist.crowdsec.json") || slices.Contains(n, "blocklist.ipset") {
		t.Errorf("--block-format nftables after all: %v, want blocklist.nft and no other format's file", n)
	}
	audit()
	n = names()
	want := "agents.json blocklist.txt breaches.csv notes.txt report.html report.md summary.json violations.csv"
	if got := strings.Join(n, " "); got != want {
		t.Errorf("no --block-format after nftables: %s, want %s", got, want)
	}
}

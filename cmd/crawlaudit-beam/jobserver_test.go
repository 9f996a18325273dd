//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/report"
)

// buildTool builds the Go main package pkg into dir and returns the
// executable's path, or skips the test when the build cannot be done here
// (no go command, or a module the proxy does not serve).
func buildTool(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("cannot build %s here (%v): %s", pkg, err, msg)
	}
	return out
}

// startJobServer starts Prism as a job server in a process of its own on
// a free port of 127.0.0.1, its working directory an empty one (so that a
// worker it starts finds no relative path of the launcher's), and returns
// its endpoint. The server is stopped when the test ends.
func startJobServer(t *testing.T, prism string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(prism, "--job_port="+strconv.Itoa(port), "--serve_http=false", "--log_level=warn")
	cmd.Dir = t.TempDir()
	// The workers of a PROCESS environment are the server's children and
	// hold its stderr: they are stopped with it, as its process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("the job server's log:\n%s", stderr.Bytes())
		}
	})
	endpoint := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the job server exited: %v\n%s", err, stderr.Bytes())
		default:
		}
		if c, err := net.DialTimeout("tcp", endpoint, time.Second); err == nil {
			c.Close()
			return endpoint
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job server did not listen on %s within a minute", endpoint)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// processShim writes the command of a PROCESS environment on Prism: it
// runs Beam's Go boot program with the worker id Prism gives it. Prism
// (Beam 2.77.0, runners/prism/internal/environments.go) starts the command
// with the argument --id='ID', quotes included, as if through a shell, and
// then does not know the worker by that quoted id ("not registered in
// worker pool"): the shim takes the quotes off.
//
// The boot program stages the worker binary into its --semi_persist_dir
// (here dir) and copies it into a new /tmp/binNNN to run it, which it
// never removes (a container's disk goes with the container): the copies
// of this test's workers are removed when the test ends.
func processShim(t *testing.T, dir, boot, worker string) string {
	t.Helper()
	p := filepath.Join(dir, "boot-for-prism.sh")
	script := "#!/bin/sh\n" +
		"# Prism passes --id='ID' with the quotes in the value: take them off.\n" +
		"id=${1#--id=}; shift\n" +
		"id=${id#\\'}; id=${id%\\'}\n" +
		"exec '" + boot + "' --id=\"$id\" --semi_persist_dir='" + dir + "' \"$@\"\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(-time.Second)
	self, err := os.Stat(worker)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		copies, _ := filepath.Glob("/tmp/bin*/worker")
		for _, c := range copies {
			if fi, err := os.Stat(c); err == nil && fi.Size() == self.Size() && fi.ModTime().After(start) {
				os.RemoveAll(filepath.Dir(c))
			}
		}
	})
	return p
}

// setBeamFlags sets Beam's own flags (package jobopts reads them from the
// command line) for the rest of the test.
func setBeamFlags(t *testing.T, values map[string]string) {
	t.Helper()
	for name, v := range values {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("Beam has no flag --%s", name)
		}
		old := f.Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

// TestPipelineOnJobServer runs the pipeline on Prism started as a job
// server in a process of its own, as a user runs it against a job server
// (--runner universal --endpoint HOST:PORT), with its workers in the
// launcher (LOOPBACK) and in processes the job server starts (PROCESS,
// through Beam's Go boot program, which fetches the staged worker binary
// as Beam's container does), and checks summary.json equal to
// `crawlaudit audit --json`'s. The job server and the PROCESS workers run
// in a directory of their own, and --robots, --operators and --ranges are
// given as paths relative to the launcher's: they reach the workers in
// the pipeline, not through the launcher's disk. Then the same month as
// objects of an S3 bucket on 127.0.0.1 (one per day, a few to a piece,
// the credentials from the environment), with --out a
// prefix of the bucket: summary.json equal to audit's of the objects, and
// written into the bucket.
func TestPipelineOnJobServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Prism's job server and runs pipelines on it")
	}
	bin := t.TempDir()
	prism := buildTool(t, bin, "prism", "github.com/apache/beam/sdks/v2/go/cmd/prism")
	// The bucket first: its credentials, in the environment, are the
	// standard chain of the job server's PROCESS workers too, which
	// inherit it.
	srv, days := sampleBucket(t)
	endpoint := startJobServer(t, prism)

	// The operator rules, relative to the launcher's directory only.
	rules, err := os.CreateTemp(".", ".jobserver-operators-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(rules.Name()) })
	if _, err := rules.WriteString("crawlers:\n  - token: ClaudeBot\n    ignores_star: true\n    source: https://example.com/test-rule\n"); err != nil {
		t.Fatal(err)
	}
	rules.Close()
	// A --ranges directory, relative to the launcher's directory only:
	// bingbot's list replaced by one that holds none of the sample's
	// bingbot addresses, which become spoofed.
	ranges, err := os.MkdirTemp(".", ".jobserver-ranges-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ranges) })
	if err := os.Mkdir(filepath.Join(ranges, "bingbot"), 0o755); err != nil {
		t.Fatal(err)
	}
	list := `{"creationTime": "2026-09-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "203.0.114.0/24"}]}`
	if err := os.WriteFile(filepath.Join(ranges, "bingbot", "2026-09-01T00:00:00Z.json"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := filepath.Abs(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	opt := options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour,
		Operators: filepath.Base(rules.Name()), Ranges: filepath.Base(ranges)}}
	want := auditJSON(t, opt, []string{log})
	objects := []string{srv.URL("cf/")}
	wantObjects := auditJSON(t, opt, objects)
	// The rule and the lists must each change the audit, or the test could
	// not tell whether the workers had them.
	for _, without := range []string{"--operators", "--ranges"} {
		o := opt
		if without == "--operators" {
			o.Operators = ""
		} else {
			o.Ranges = ""
		}
		if bytes.Equal(want, auditJSON(t, o, []string{log})) {
			t.Fatalf("the sample month's summary is the same without %s", without)
		}
	}

	for _, env := range []string{"LOOPBACK", "PROCESS"} {
		t.Run(env, func(t *testing.T) {
			flags := map[string]string{"endpoint": endpoint, "environment_type": env, "job_name": "crawlaudit-beam-" + env}
			if env == "PROCESS" {
				// The workers run this test binary (TestMain hands a process
				// started with --worker to Beam's harness): a worker must
				// be the launcher's own program, which registered the
				// steps under its package's path, as crawlaudit-beam stages
				// itself.
				self, err := os.Executable()
				if err != nil {
					t.Fatal(err)
				}
				flags["worker_binary"] = self
				boot := buildTool(t, bin, "boot", "github.com/apache/beam/sdks/v2/go/container")
				flags["environment_config"] = fmt.Sprintf(`{"command": %q}`, processShim(t, t.TempDir(), boot, self))
			}
			setBeamFlags(t, flags)
			out := filepath.Join(t.TempDir(), "out")
			var stdout bytes.Buffer
			o := &cliOptions{options: opt, json: true, out: out}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			if err := runAudit(ctx, o, []string{log}, "universal", &stdout); err != nil {
				t.Fatal(err)
			}
			got := stdout.Bytes()
			if !bytes.Equal(got, want) {
				t.Errorf("summary.json differs from crawlaudit audit --json's:\n%s", diffLines(want, got))
			}
			var s report.Summary
			if err := json.Unmarshal(got, &s); err != nil {
				t.Fatal(err)
			}
			if len(s.Bots) < 10 || s.Input.Files != 1 {
				t.Errorf("%d bot rows, %d files: the sample month was not audited", len(s.Bots), s.Input.Files)
			}

			// The sample month as objects of the bucket, three or four
			// to a piece, each piece read by a worker, summary.json
			// written into the bucket.
			out = srv.URL("audits/" + env + "/")
			stdout.Reset()
			byObjects := opt
			byObjects.SplitBytes = 100_000
			o = &cliOptions{options: byObjects, json: true, out: out}
			if err := runAudit(ctx, o, objects, "universal", &stdout); err != nil {
				t.Fatal(err)
			}
			if got := stdout.Bytes(); !bytes.Equal(got, wantObjects) {
				t.Errorf("summary.json of the objects differs from crawlaudit audit --json's:\n%s", diffLines(wantObjects, got))
			}
			if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
				t.Fatal(err)
			}
			if s.Input.Files != days || len(s.Input.Skipped) != 1 {
				t.Errorf("%d objects read (want %d), skipped %+v", s.Input.Files, days, s.Input.Skipped)
			}
			prefix, err := objstore.OpenPrefix(ctx, out)
			if err != nil {
				t.Fatal(err)
			}
			defer prefix.Close()
			if written, err := prefix.Read(ctx, summaryFile, maxSummaryBytes); err != nil || !bytes.Equal(written, wantObjects) {
				t.Errorf("%s: %d bytes, %v", prefix.Name(summaryFile), len(written), err)
			}
			if env != "PROCESS" {
				return
			}
			// A LOG given relative to the launcher's directory is not where
			// these workers look: the error says so.
			err = runAudit(ctx, &cliOptions{options: opt, json: true}, []string{sampleLog}, "universal", io.Discard)
			if err == nil || !strings.Contains(err.Error(), "not found by the worker") || !strings.Contains(err.Error(), sampleLog) {
				t.Errorf("a relative LOG on PROCESS workers: %v", err)
			}
		})
	}
}
